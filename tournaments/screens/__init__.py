"""The lobby screens: a screen and its link, its layouts, images and sounds, the pages and API."""
