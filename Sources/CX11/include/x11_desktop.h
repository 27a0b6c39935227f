#ifndef X11_DESKTOP_H
#define X11_DESKTOP_H

// The X11 side of `widgets desktop`: one window of type _NET_WM_WINDOW_TYPE_DESKTOP kept below the
// others (as conky's desktop windows are), a 32-bit visual where the server has one, shaped to where
// the widgets draw (so nothing shows around them, with or without a compositing manager), taking
// input only where widgets are. libxcb and libxcb-shape are loaded with dlopen when `wx_connect` is
// first called; no X header is needed to build: the wire structures used are declared in
// x11_desktop.c.

#include <stddef.h>
#include <stdint.h>

typedef struct wx_display wx_display;

typedef struct wx_callbacks {
    void *context;
    // A button pressed (`pressed` 1) or released at a point of the window.
    void (*button)(void *context, double x, double y, uint32_t button, int pressed);
    // The window must be drawn again (exposed).
    void (*expose)(void *context);
    // The screen's size or its monitors changed (RandR, xrandr), in pixels.
    void (*screen)(void *context, int width, int height);
    // The server refused a request (its error code).
    void (*error)(void *context, int code);
    // The screen's resources (RESOURCE_MANAGER, where Xft.dpi is) changed.
    void (*resources)(void *context);
} wx_callbacks;

// Connects to the X server (`name` as DISPLAY gives it, NULL for the environment's). NULL with the
// reason in `error` (a missing library names its Debian package).
wx_display *wx_connect(const char *name, const wx_callbacks *callbacks, char *error, size_t error_size);
void wx_disconnect(wx_display *display);
// The screen's size in pixels.
void wx_screen_size(wx_display *display, int *width, int *height);
// The dots per inch the screen's resources give (`Xft.dpi`, which desktops set for their scale); 0
// when they give none.
double wx_resource_dpi(wx_display *display);
// A monitor of the screen (RandR 1.5: a physical one, or one set with `xrandr --setmonitor`).
typedef struct wx_monitor {
    char name[64];
    int x, y, width, height, primary;
} wx_monitor;
// The screen's monitors, `capacity` at most into `out`: their count, or -1 when there are none to ask
// for (no RandR 1.5 on the server, or no libxcb-randr here): the screen is then one.
int wx_monitors(wx_display *display, wx_monitor *out, int capacity);
// For tests: sets a monitor, as `xrandr --setmonitor` does. 0 on success.
int wx_set_monitor(wx_display *display, const char *name, int x, int y, int width, int height, int primary);
// For tests: removes a monitor, as `xrandr --delmonitor` does (a monitor unplugged). 0 on success.
int wx_delete_monitor(wx_display *display, const char *name);
// For tests: replaces the screen's resources (as `xrdb -load` does). 0 on success.
int wx_set_resources(wx_display *display, const char *text);
// Waits at most `timeout_ms` (-1: as long as it takes) for the server or `wake_fd`, and handles what
// came. 1 when wake_fd is readable, 0 otherwise, -1 when the connection is lost.
int wx_dispatch(wx_display *display, int wake_fd, int timeout_ms, char *error, size_t error_size);
// Makes the window (first call) or moves and resizes it: `width` × `height` pixels at (x, y) of the screen.
int wx_place(wx_display *display, int x, int y, int width, int height, char *error, size_t error_size);
// Draws `pixels` (premultiplied ARGB32, machine order, `stride` bytes a row) into the window: those of
// the `damage` rectangles (x, y, width, height; all of them when there is none), shaped to the pixels
// that are not transparent, input taken in the rectangles of `input`. A shape the same as the last
// one set is not sent again.
int wx_present(wx_display *display, const uint8_t *pixels, int width, int height, int stride, const int32_t *damage, int damage_count,
               const int32_t *input, int input_count, char *error, size_t error_size);
// Shapes the window to nothing: it stays, showing and taking nothing, until the next wx_present.
void wx_hide(wx_display *display);

// For tests: the screen's pixels in a rectangle (32 bits a pixel, 0xAARRGGBB in machine order) into
// `out` (width × height × 4 bytes). 0 on success.
int wx_capture(wx_display *display, int x, int y, int width, int height, uint8_t *out);

#endif
