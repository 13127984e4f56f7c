"""What a 128x64 screen shows: layouts, their drawing, menus, fonts."""
