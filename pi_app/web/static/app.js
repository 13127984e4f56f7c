// The live part of the page follows the journal: the server sends an event
// when it changes, and the part is fetched again. Served from the box itself.
"use strict";
(function () {
  const live = document.body.dataset.live;
  const main = document.getElementById("live");
  if (!live || !main || !window.EventSource) return;
  let busy = false, again = false;
  async function update() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const answer = await fetch(live, { cache: "no-store" });
      if (answer.ok) main.innerHTML = await answer.text();
    } catch (e) {
      // the box may be restarting: the next event brings the page back
    } finally {
      busy = false;
      if (again) { again = false; update(); }
    }
  }
  const events = new EventSource("/events");
  let first = true;
  events.onmessage = function () {
    if (first) { first = false; return; }  // the page was drawn from this very state
    update();
  };
  events.onerror = function () { document.body.classList.add("offline"); };
  events.onopen = function () {
    if (document.body.classList.contains("offline")) update();
    document.body.classList.remove("offline");
  };
})();
