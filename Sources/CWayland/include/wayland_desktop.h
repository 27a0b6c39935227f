#ifndef WAYLAND_DESKTOP_H
#define WAYLAND_DESKTOP_H

// A small Wayland client for `widgets desktop`: layer-shell surfaces (zwlr_layer_shell_v1) on the
// outputs, shared-memory buffers, the outputs' names and scales, and pointer buttons. libwayland-client
// is loaded with dlopen when `wd_connect` is first called: nothing here is needed to build or to run
// the rest of the project. No Wayland header is needed either: the few structures of libwayland's
// stable ABI used here are declared in wayland_desktop.c, and the layer shell's interface tables are
// written there from its protocol description.

#include <stddef.h>
#include <stdint.h>

typedef struct wd_display wd_display;
typedef struct wd_surface wd_surface;

// What the display tells its owner; every call is made from inside wd_dispatch (or wd_connect), on
// the caller's thread. `context` is handed back as it was given.
typedef struct wd_callbacks {
    void *context;
    // An output appeared or changed (after its `done`), or was removed (`removed` 1). `id` is the
    // registry's name for it, never 0; `name` is the compositor's (HEADLESS-1, DP-1), "" before v4.
    void (*output)(void *context, uint32_t id, const char *name, int32_t scale, int32_t width, int32_t height, int removed);
    // A surface's size, chosen by the compositor (0 keeps the asked size), to be acknowledged by
    // drawing: wd_surface_commit acknowledges the latest configure.
    void (*configure)(void *context, wd_surface *surface, uint32_t width, uint32_t height);
    // The compositor closed a surface (its output went away): the owner destroys it and may make another.
    void (*closed)(void *context, wd_surface *surface);
    // The output a surface is shown on now (0 when it left every output), for its scale.
    void (*entered)(void *context, wd_surface *surface, uint32_t output);
    // A pointer button pressed (`pressed` 1) or released over a surface, at a point in surface coordinates.
    void (*button)(void *context, wd_surface *surface, double x, double y, uint32_t button, int pressed);
    // The seat has a pointer now (`present` 1), or no longer.
    void (*pointer)(void *context, int present);
} wd_callbacks;

// Connects to the compositor (`name`: WAYLAND_DISPLAY's form, or NULL for the environment's), and
// reads its globals. NULL on failure, with the reason in `error` (a missing library names it and the
// Debian package; a compositor without the layer shell says so).
wd_display *wd_connect(const char *name, const wd_callbacks *callbacks, char *error, size_t error_size);
void wd_disconnect(wd_display *display);
// Sends what was asked, waits at most `timeout_ms` (-1: as long as it takes) for the compositor or for
// `wake_fd` (-1: none) to become readable, and dispatches what came. Returns 1 when wake_fd is readable,
// 0 otherwise, -1 when the connection is lost (the reason in `error`).
int wd_dispatch(wd_display *display, int wake_fd, int timeout_ms, char *error, size_t error_size);
// A round trip: everything asked so far is answered. -1 when the connection is lost.
int wd_roundtrip(wd_display *display);

// Layers, anchors (bits) and keyboard interactivity as zwlr_layer_shell_v1 numbers them.
enum { WD_LAYER_BACKGROUND = 0, WD_LAYER_BOTTOM = 1, WD_LAYER_TOP = 2, WD_LAYER_OVERLAY = 3 };
enum { WD_ANCHOR_TOP = 1, WD_ANCHOR_BOTTOM = 2, WD_ANCHOR_LEFT = 4, WD_ANCHOR_RIGHT = 8 };

// A layer surface of `width` × `height` points on output `output` (0: the compositor chooses),
// anchored and with margins (top, right, bottom, left), no exclusive zone, no keyboard. Shown once it is
// configured and drawn (wd_tile, wd_surface_commit). NULL when it cannot be made.
wd_surface *wd_layer_surface(
    wd_display *display, uint32_t output, uint32_t layer, uint32_t anchor, const int32_t margins[4], uint32_t width, uint32_t height,
    const char *namespace_name);
// Asks for another size (and margins); a configure follows.
void wd_surface_resize(wd_surface *surface, uint32_t width, uint32_t height, const int32_t margins[4]);
void wd_surface_destroy(wd_surface *surface);
// Whether the surface was configured (may be drawn).
int wd_surface_configured(const wd_surface *surface);

// Shows a widget's pixels (premultiplied ARGB32 in the machine's order, `stride` bytes a row, `width` ×
// `height` pixels, `scale` pixels a point; NULL: transparent) as the surface's `index`th tile (0 up to the count of
// tiles: one more makes a new one), its top left at (x, y) points of the surface: a subsurface of its
// own, drawn from a shared-memory buffer the compositor alone keeps, committed. A new place takes
// effect with wd_surface_commit. The client keeps no pixels: a widget is drawn again, alone, when
// it changes. At most WD_MAX_TILES a surface. 0 on success, -1 with the reason.
#define WD_MAX_TILES 64
int wd_tile(wd_surface *surface, int index, int32_t x, int32_t y, const uint8_t *pixels, int32_t width, int32_t height, int32_t stride,
            int32_t scale, char *error, size_t error_size);

// Commits the surface: its tiles from `count` on removed, the latest configure acknowledged, the
// surface mapped (by a transparent pixel of its own; input is taken by the tiles, where the widgets
// are). 0 on success, -1 with the reason.
int wd_surface_commit(wd_surface *surface, int count, char *error, size_t error_size);

// Names the calling thread (15 bytes at most), as ps and /proc show it.
void wd_name_thread(const char *name);
// The calling thread's id (as /proc/PID/task/ names it).
int wd_thread_id(void);

// An eventfd (close-on-exec, non-blocking) another thread writes to wake wd_dispatch.
int wd_wake_fd(void);

// SIGINT and SIGTERM noted rather than ending the process (and `wake_fd`, an eventfd, written to, so
// that wd_dispatch returns whichever thread the signal came to), and whether one came. The calling
// thread takes them even if the process was started with them blocked.
void wd_catch_termination(int wake_fd);
int wd_termination_requested(void);

// For tests: a virtual pointer (zwlr_virtual_pointer_manager_v1, made on first use and kept) moved to
// (x, y) of the output layout of `extent_width` × `extent_height`, and its left (or, `secondary`,
// right) button pressed or released. 0 on success, -1 when the compositor has no such protocol.
int wd_virtual_move(wd_display *display, uint32_t x, uint32_t y, uint32_t extent_width, uint32_t extent_height);
int wd_virtual_button(wd_display *display, int secondary, int pressed);

#endif
