// A small Wayland client for `widgets desktop` (see wayland_desktop.h), over libwayland-client loaded
// with dlopen. libwayland's stable ABI is declared here (struct wl_interface and wl_message, the
// proxy functions, the core interfaces it exports as data); the layer-shell and virtual-pointer
// interfaces are written from their protocol descriptions (wlr-protocols), since libwayland
// knows only the core ones.
#define _GNU_SOURCE
#include "wayland_desktop.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

// MARK: - libwayland's ABI

struct wl_proxy;
struct wl_display;
struct wl_message {
    const char *name;
    const char *signature;
    const struct wl_interface **types;
};
struct wl_interface {
    const char *name;
    int version;
    int method_count;
    const struct wl_message *methods;
    int event_count;
    const struct wl_message *events;
};
typedef int32_t wl_fixed_t;
#define WL_MARSHAL_FLAG_DESTROY 1u

static struct {
    int loaded;
    struct wl_display *(*display_connect)(const char *);
    void (*display_disconnect)(struct wl_display *);
    int (*display_get_fd)(struct wl_display *);
    int (*display_dispatch_pending)(struct wl_display *);
    int (*display_roundtrip)(struct wl_display *);
    int (*display_flush)(struct wl_display *);
    int (*display_prepare_read)(struct wl_display *);
    int (*display_read_events)(struct wl_display *);
    void (*display_cancel_read)(struct wl_display *);
    int (*display_get_error)(struct wl_display *);
    struct wl_proxy *(*proxy_marshal_flags)(struct wl_proxy *, uint32_t, const struct wl_interface *, uint32_t, uint32_t, ...);
    int (*proxy_add_listener)(struct wl_proxy *, void (**)(void), void *);
    void (*proxy_destroy)(struct wl_proxy *);
    uint32_t (*proxy_get_version)(struct wl_proxy *);
    const struct wl_interface *registry, *compositor, *surface, *region, *shm, *shm_pool, *buffer, *output, *seat, *pointer;
    const struct wl_interface *subcompositor, *subsurface;
} wl;

static int load_wayland(char *error, size_t size) {
    if (wl.loaded) return 0;
    void *library = dlopen("libwayland-client.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(error, size, "libwayland-client.so.0 cannot be loaded (%s); install the Debian package libwayland-client0",
                 reason ? reason : "not found");
        return -1;
    }
#define SYMBOL(field, name)                                                                                                 \
    do {                                                                                                                    \
        *(void **)&wl.field = dlsym(library, name);                                                                         \
        if (!wl.field) {                                                                                                    \
            snprintf(error, size, "libwayland-client.so.0 has no %s (version 1.20 or later is needed)", name);             \
            return -1;                                                                                                      \
        }                                                                                                                   \
    } while (0)
    SYMBOL(display_connect, "wl_display_connect");
    SYMBOL(display_disconnect, "wl_display_disconnect");
    SYMBOL(display_get_fd, "wl_display_get_fd");
    SYMBOL(display_dispatch_pending, "wl_display_dispatch_pending");
    SYMBOL(display_roundtrip, "wl_display_roundtrip");
    SYMBOL(display_flush, "wl_display_flush");
    SYMBOL(display_prepare_read, "wl_display_prepare_read");
    SYMBOL(display_read_events, "wl_display_read_events");
    SYMBOL(display_cancel_read, "wl_display_cancel_read");
    SYMBOL(display_get_error, "wl_display_get_error");
    SYMBOL(proxy_marshal_flags, "wl_proxy_marshal_flags");
    SYMBOL(proxy_add_listener, "wl_proxy_add_listener");
    SYMBOL(proxy_destroy, "wl_proxy_destroy");
    SYMBOL(proxy_get_version, "wl_proxy_get_version");
    SYMBOL(registry, "wl_registry_interface");
    SYMBOL(compositor, "wl_compositor_interface");
    SYMBOL(surface, "wl_surface_interface");
    SYMBOL(region, "wl_region_interface");
    SYMBOL(shm, "wl_shm_interface");
    SYMBOL(shm_pool, "wl_shm_pool_interface");
    SYMBOL(buffer, "wl_buffer_interface");
    SYMBOL(output, "wl_output_interface");
    SYMBOL(seat, "wl_seat_interface");
    SYMBOL(pointer, "wl_pointer_interface");
    SYMBOL(subcompositor, "wl_subcompositor_interface");
    SYMBOL(subsurface, "wl_subsurface_interface");
#undef SYMBOL
    wl.loaded = 1;
    return 0;
}

// MARK: - zwlr_layer_shell_v1 (version 4) and zwlr_virtual_pointer_manager_v1 (version 1)

static const struct wl_interface layer_surface_interface;
static const struct wl_interface *get_layer_surface_types[5];
static const struct wl_interface *no_types[6];
static const struct wl_message layer_shell_requests[] = {
    {"get_layer_surface", "no?ous", get_layer_surface_types},
    {"destroy", "3", no_types},
};
static const struct wl_interface layer_shell_interface = {"zwlr_layer_shell_v1", 4, 2, layer_shell_requests, 0, NULL};
static const struct wl_message layer_surface_requests[] = {
    {"set_size", "uu", no_types},          {"set_anchor", "u", no_types},     {"set_exclusive_zone", "i", no_types},
    {"set_margin", "iiii", no_types},      {"set_keyboard_interactivity", "u", no_types},
    {"get_popup", "o", no_types},          {"ack_configure", "u", no_types},  {"destroy", "", no_types},
    {"set_layer", "2u", no_types},
};
static const struct wl_message layer_surface_events[] = {
    {"configure", "uuu", no_types},
    {"closed", "", no_types},
};
static const struct wl_interface layer_surface_interface = {
    "zwlr_layer_surface_v1", 4, 9, layer_surface_requests, 2, layer_surface_events};

static const struct wl_interface virtual_pointer_interface;
static const struct wl_interface *create_pointer_types[2];
static const struct wl_message virtual_pointer_manager_requests[] = {
    {"create_virtual_pointer", "?on", create_pointer_types},
    {"destroy", "", no_types},
};
static const struct wl_interface virtual_pointer_manager_interface = {
    "zwlr_virtual_pointer_manager_v1", 1, 2, virtual_pointer_manager_requests, 0, NULL};
static const struct wl_message virtual_pointer_requests[] = {
    {"motion", "uff", no_types},  {"motion_absolute", "uuuuu", no_types}, {"button", "uuu", no_types},
    {"axis", "uuf", no_types},    {"frame", "", no_types},                {"axis_source", "u", no_types},
    {"axis_stop", "uu", no_types}, {"axis_discrete", "uufi", no_types},   {"destroy", "", no_types},
};
static const struct wl_interface virtual_pointer_interface = {"zwlr_virtual_pointer_v1", 1, 9, virtual_pointer_requests, 0, NULL};

// The type tables name core interfaces, known only once libwayland is loaded.
static void fill_types(void) {
    get_layer_surface_types[0] = &layer_surface_interface;
    get_layer_surface_types[1] = wl.surface;
    get_layer_surface_types[2] = wl.output;
    create_pointer_types[0] = wl.seat;
    create_pointer_types[1] = &virtual_pointer_interface;
}

// MARK: - State

#define MAX_OUTPUTS 16
#define MAX_SURFACES 64
#define MAX_TILES WD_MAX_TILES

struct output {
    uint32_t id;
    struct wl_proxy *proxy;
    char name[64];
    int32_t scale, width, height;
};

// A widget's own surface, a subsurface of the layer surface, at (x, y) points of it.
struct tile {
    struct wl_proxy *surface, *subsurface;
    int32_t x, y;
};

struct wd_surface {
    wd_display *display;
    struct wl_proxy *surface, *layer;
    uint32_t pending_serial;
    int needs_ack, configured;
    // The layer surface itself shows a transparent pixel; the widgets are its tiles.
    int mapped;
    struct tile tiles[MAX_TILES];
    int tile_count;
};

struct wd_display {
    struct wl_display *display;
    struct wl_proxy *registry, *compositor, *subcompositor, *shm, *seat, *pointer, *layer_shell, *pointer_manager;
    // A test's virtual pointer (wd_virtual_move), made on first use.
    struct wl_proxy *virtual_pointer;
    uint32_t compositor_version, seat_version;
    wd_callbacks callbacks;
    struct output outputs[MAX_OUTPUTS];
    wd_surface *surfaces[MAX_SURFACES];
    // The pointer: the surface it is over, the tile it is on (-1: the surface itself), and where on
    // that it is (a tile's place is read when the pointer moves: a tile may have moved under it).
    wd_surface *hovered;
    int hovered_tile;
    double local_x, local_y;
};

// Where the pointer is on the surface it is over, in points.
static void pointer_place(wd_display *display, double *x, double *y) {
    *x = display->local_x, *y = display->local_y;
    wd_surface *surface = display->hovered;
    if (surface && display->hovered_tile >= 0 && display->hovered_tile < surface->tile_count) {
        *x += surface->tiles[display->hovered_tile].x;
        *y += surface->tiles[display->hovered_tile].y;
    }
}

#define VERSION(proxy) wl.proxy_get_version(proxy)

static struct output *output_with_id(wd_display *display, uint32_t id) {
    for (int index = 0; index < MAX_OUTPUTS; index++)
        if (display->outputs[index].proxy && display->outputs[index].id == id) return &display->outputs[index];
    return NULL;
}

static struct output *output_with_proxy(wd_display *display, struct wl_proxy *proxy) {
    for (int index = 0; index < MAX_OUTPUTS; index++)
        if (proxy && display->outputs[index].proxy == proxy) return &display->outputs[index];
    return NULL;
}

// The layer surface a proxy is, or is a tile of (and which tile; -1: the surface itself).
static wd_surface *surface_with_proxy(wd_display *display, struct wl_proxy *proxy, int *tile) {
    *tile = -1;
    for (int index = 0; index < MAX_SURFACES; index++) {
        wd_surface *surface = display->surfaces[index];
        if (!surface || !proxy) continue;
        if (surface->surface == proxy || surface->layer == proxy) return surface;
        for (int number = 0; number < surface->tile_count; number++)
            if (surface->tiles[number].surface == proxy) {
                *tile = number;
                return surface;
            }
    }
    return NULL;
}

// MARK: - Outputs

static void output_geometry(void *data, struct wl_proxy *proxy, int32_t x, int32_t y, int32_t pw, int32_t ph, int32_t subpixel,
                            const char *make, const char *model, int32_t transform) {
    (void)data, (void)proxy, (void)x, (void)y, (void)pw, (void)ph, (void)subpixel, (void)make, (void)model, (void)transform;
}
static void output_mode(void *data, struct wl_proxy *proxy, uint32_t flags, int32_t width, int32_t height, int32_t refresh) {
    (void)refresh;
    struct output *output = output_with_proxy(data, proxy);
    if (output && (flags & 1u)) output->width = width, output->height = height;
}
static void output_done(void *data, struct wl_proxy *proxy) {
    wd_display *display = data;
    struct output *output = output_with_proxy(display, proxy);
    if (output && display->callbacks.output)
        display->callbacks.output(display->callbacks.context, output->id, output->name, output->scale, output->width, output->height, 0);
}
static void output_scale(void *data, struct wl_proxy *proxy, int32_t factor) {
    struct output *output = output_with_proxy(data, proxy);
    if (output) output->scale = factor > 0 ? factor : 1;
}
static void output_name(void *data, struct wl_proxy *proxy, const char *name) {
    struct output *output = output_with_proxy(data, proxy);
    if (output) snprintf(output->name, sizeof output->name, "%s", name ? name : "");
}
static void output_description(void *data, struct wl_proxy *proxy, const char *description) { (void)data, (void)proxy, (void)description; }
static void (*output_listener[])(void) = {
    (void (*)(void))output_geometry, (void (*)(void))output_mode, (void (*)(void))output_done,
    (void (*)(void))output_scale,    (void (*)(void))output_name, (void (*)(void))output_description,
};

// MARK: - Pointer

static void pointer_enter(void *data, struct wl_proxy *pointer, uint32_t serial, struct wl_proxy *surface, wl_fixed_t x, wl_fixed_t y) {
    (void)pointer, (void)serial;
    wd_display *display = data;
    display->hovered = surface_with_proxy(display, surface, &display->hovered_tile);
    display->local_x = x / 256.0, display->local_y = y / 256.0;
}
static void pointer_leave(void *data, struct wl_proxy *pointer, uint32_t serial, struct wl_proxy *surface) {
    (void)pointer, (void)serial, (void)surface;
    ((wd_display *)data)->hovered = NULL;
}
static void pointer_motion(void *data, struct wl_proxy *pointer, uint32_t time, wl_fixed_t x, wl_fixed_t y) {
    (void)pointer, (void)time;
    wd_display *display = data;
    display->local_x = x / 256.0, display->local_y = y / 256.0;
}
static void pointer_button(void *data, struct wl_proxy *pointer, uint32_t serial, uint32_t time, uint32_t button, uint32_t state) {
    (void)pointer, (void)serial, (void)time;
    wd_display *display = data;
    if (display->hovered && display->callbacks.button) {
        double x, y;
        pointer_place(display, &x, &y);
        display->callbacks.button(display->callbacks.context, display->hovered, x, y, button, state == 1);
    }
}
static void pointer_axis(void *data, struct wl_proxy *pointer, uint32_t time, uint32_t axis, wl_fixed_t value) {
    (void)data, (void)pointer, (void)time, (void)axis, (void)value;
}
static void pointer_frame(void *data, struct wl_proxy *pointer) { (void)data, (void)pointer; }
static void pointer_axis_source(void *data, struct wl_proxy *pointer, uint32_t source) { (void)data, (void)pointer, (void)source; }
static void pointer_axis_stop(void *data, struct wl_proxy *pointer, uint32_t time, uint32_t axis) {
    (void)data, (void)pointer, (void)time, (void)axis;
}
static void pointer_axis_discrete(void *data, struct wl_proxy *pointer, uint32_t axis, int32_t discrete) {
    (void)data, (void)pointer, (void)axis, (void)discrete;
}
static void (*pointer_listener[])(void) = {
    (void (*)(void))pointer_enter,       (void (*)(void))pointer_leave,     (void (*)(void))pointer_motion,
    (void (*)(void))pointer_button,      (void (*)(void))pointer_axis,      (void (*)(void))pointer_frame,
    (void (*)(void))pointer_axis_source, (void (*)(void))pointer_axis_stop, (void (*)(void))pointer_axis_discrete,
};

static void seat_capabilities(void *data, struct wl_proxy *seat, uint32_t capabilities) {
    wd_display *display = data;
    int has_pointer = (capabilities & 1u) != 0;
    if (has_pointer && !display->pointer) {
        display->pointer = wl.proxy_marshal_flags(seat, 0, wl.pointer, VERSION(seat), 0, NULL);
        if (display->pointer) wl.proxy_add_listener(display->pointer, pointer_listener, display);
        if (display->pointer && display->callbacks.pointer) display->callbacks.pointer(display->callbacks.context, 1);
    } else if (!has_pointer && display->pointer) {
        if (VERSION(display->pointer) >= 3)
            wl.proxy_marshal_flags(display->pointer, 1, NULL, VERSION(display->pointer), WL_MARSHAL_FLAG_DESTROY);
        else
            wl.proxy_destroy(display->pointer);
        display->pointer = NULL;
        display->hovered = NULL;
        if (display->callbacks.pointer) display->callbacks.pointer(display->callbacks.context, 0);
    }
}
static void seat_name(void *data, struct wl_proxy *seat, const char *name) { (void)data, (void)seat, (void)name; }
static void (*seat_listener[])(void) = {(void (*)(void))seat_capabilities, (void (*)(void))seat_name};

// MARK: - Registry

static void shm_format(void *data, struct wl_proxy *shm, uint32_t format) { (void)data, (void)shm, (void)format; }
static void (*shm_listener[])(void) = {(void (*)(void))shm_format};

static uint32_t min_version(uint32_t offered, uint32_t wanted) { return offered < wanted ? offered : wanted; }

static struct wl_proxy *bind(wd_display *display, uint32_t name, const struct wl_interface *interface, uint32_t version) {
    return wl.proxy_marshal_flags(display->registry, 0, interface, version, 0, name, interface->name, version, NULL);
}

static void registry_global(void *data, struct wl_proxy *registry, uint32_t name, const char *interface, uint32_t version) {
    (void)registry;
    wd_display *display = data;
    if (strcmp(interface, "wl_compositor") == 0 && !display->compositor) {
        display->compositor_version = min_version(version, 4);
        display->compositor = bind(display, name, wl.compositor, display->compositor_version);
    } else if (strcmp(interface, "wl_subcompositor") == 0 && !display->subcompositor) {
        display->subcompositor = bind(display, name, wl.subcompositor, 1);
    } else if (strcmp(interface, "wl_shm") == 0 && !display->shm) {
        display->shm = bind(display, name, wl.shm, 1);
        if (display->shm) wl.proxy_add_listener(display->shm, shm_listener, display);
    } else if (strcmp(interface, "wl_seat") == 0 && !display->seat) {
        display->seat_version = min_version(version, 5);
        display->seat = bind(display, name, wl.seat, display->seat_version);
        if (display->seat) wl.proxy_add_listener(display->seat, seat_listener, display);
    } else if (strcmp(interface, "zwlr_layer_shell_v1") == 0 && !display->layer_shell) {
        display->layer_shell = bind(display, name, &layer_shell_interface, min_version(version, 4));
    } else if (strcmp(interface, "zwlr_virtual_pointer_manager_v1") == 0 && !display->pointer_manager) {
        display->pointer_manager = bind(display, name, &virtual_pointer_manager_interface, 1);
    } else if (strcmp(interface, "wl_output") == 0) {
        for (int index = 0; index < MAX_OUTPUTS; index++) {
            struct output *output = &display->outputs[index];
            if (output->proxy) continue;
            output->proxy = bind(display, name, wl.output, min_version(version, 4));
            if (!output->proxy) return;
            output->id = name;
            output->scale = 1;
            output->name[0] = 0;
            output->width = output->height = 0;
            wl.proxy_add_listener(output->proxy, output_listener, display);
            return;
        }
    }
}

static void registry_global_remove(void *data, struct wl_proxy *registry, uint32_t name) {
    (void)registry;
    wd_display *display = data;
    struct output *output = output_with_id(display, name);
    if (!output) return;
    if (VERSION(output->proxy) >= 3)
        wl.proxy_marshal_flags(output->proxy, 0, NULL, VERSION(output->proxy), WL_MARSHAL_FLAG_DESTROY);
    else
        wl.proxy_destroy(output->proxy);
    output->proxy = NULL;
    if (display->callbacks.output) display->callbacks.output(display->callbacks.context, name, output->name, output->scale, 0, 0, 1);
}
static void (*registry_listener[])(void) = {(void (*)(void))registry_global, (void (*)(void))registry_global_remove};

// MARK: - Connection

wd_display *wd_connect(const char *name, const wd_callbacks *callbacks, char *error, size_t error_size) {
    if (load_wayland(error, error_size) != 0) return NULL;
    fill_types();
    struct wl_display *connection = wl.display_connect(name);
    if (!connection) {
        const char *shown = name ? name : getenv("WAYLAND_DISPLAY");
        snprintf(error, error_size, "cannot connect to the Wayland compositor%s%s%s (%s)", shown ? " at " : "", shown ? shown : "",
                 shown ? "" : " (WAYLAND_DISPLAY is not set)", strerror(errno));
        return NULL;
    }
    wd_display *display = calloc(1, sizeof *display);
    if (!display) {
        wl.display_disconnect(connection);
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    display->display = connection;
    display->callbacks = *callbacks;
    struct wl_proxy *proxy = (struct wl_proxy *)connection;
    display->registry = wl.proxy_marshal_flags(proxy, 1, wl.registry, VERSION(proxy), 0, NULL);
    wl.proxy_add_listener(display->registry, registry_listener, display);
    // Globals, then what binding them brought (outputs' names and scales, the seat's capabilities).
    if (wl.display_roundtrip(connection) < 0 || wl.display_roundtrip(connection) < 0) {
        snprintf(error, error_size, "the Wayland compositor closed the connection while it was being set up (%s)", strerror(errno));
        wd_disconnect(display);
        return NULL;
    }
    const char *missing = !display->compositor      ? "wl_compositor"
                          : !display->subcompositor ? "wl_subcompositor"
                          : !display->shm           ? "wl_shm"
                          : !display->layer_shell   ? "zwlr_layer_shell_v1"
                                                    : NULL;
    if (missing) {
        snprintf(error, error_size,
                 "the Wayland compositor offers no %s%s", missing,
                 display->layer_shell ? ""
                                       : " (the layer shell of sway, Hyprland, KDE Plasma, river, niri, labwc and other wlroots compositors); "
                                         "GNOME has none: there, 'widgets home --app' shows the widgets in a window of their own");
        wd_disconnect(display);
        return NULL;
    }
    return display;
}

void wd_disconnect(wd_display *display) {
    if (!display) return;
    for (int index = 0; index < MAX_SURFACES; index++)
        if (display->surfaces[index]) wd_surface_destroy(display->surfaces[index]);
    if (display->virtual_pointer) wl.proxy_marshal_flags(display->virtual_pointer, 8, NULL, 1, WL_MARSHAL_FLAG_DESTROY);
    wl.display_disconnect(display->display);
    free(display);
}

int wd_roundtrip(wd_display *display) { return wl.display_roundtrip(display->display) < 0 ? -1 : 0; }

int wd_dispatch(wd_display *display, int wake_fd, int timeout_ms, char *error, size_t error_size) {
    struct wl_display *connection = display->display;
    while (wl.display_prepare_read(connection) != 0) {
        if (wl.display_dispatch_pending(connection) < 0) goto lost;
    }
    if (wl.display_flush(connection) < 0 && errno != EAGAIN) {
        wl.display_cancel_read(connection);
        goto lost;
    }
    struct pollfd fds[2] = {{wl.display_get_fd(connection), POLLIN, 0}, {wake_fd, POLLIN, 0}};
    int ready = poll(fds, wake_fd >= 0 ? 2 : 1, timeout_ms);
    if (ready < 0 && errno != EINTR) {
        wl.display_cancel_read(connection);
        goto lost;
    }
    if (ready > 0 && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
        if (wl.display_read_events(connection) < 0) goto lost;
    } else {
        wl.display_cancel_read(connection);
    }
    if (wl.display_dispatch_pending(connection) < 0) goto lost;
    wl.display_flush(connection);
    return (ready > 0 && wake_fd >= 0 && (fds[1].revents & POLLIN)) ? 1 : 0;
lost:;
    int code = wl.display_get_error(connection);
    snprintf(error, error_size, "the connection to the Wayland compositor was lost (%s)", strerror(code ? code : errno));
    return -1;
}

// MARK: - Surfaces

static void layer_configure(void *data, struct wl_proxy *layer, uint32_t serial, uint32_t width, uint32_t height) {
    (void)layer;
    wd_surface *surface = data;
    surface->pending_serial = serial;
    surface->needs_ack = 1;
    surface->configured = 1;
    wd_display *display = surface->display;
    if (display->callbacks.configure) display->callbacks.configure(display->callbacks.context, surface, width, height);
}
static void layer_closed(void *data, struct wl_proxy *layer) {
    (void)layer;
    wd_surface *surface = data;
    wd_display *display = surface->display;
    if (display->callbacks.closed) display->callbacks.closed(display->callbacks.context, surface);
}
static void (*layer_listener[])(void) = {(void (*)(void))layer_configure, (void (*)(void))layer_closed};

static void surface_enter(void *data, struct wl_proxy *proxy, struct wl_proxy *output_proxy) {
    (void)proxy;
    wd_surface *surface = data;
    wd_display *display = surface->display;
    struct output *output = output_with_proxy(display, output_proxy);
    if (output && display->callbacks.entered) display->callbacks.entered(display->callbacks.context, surface, output->id);
}
static void surface_leave(void *data, struct wl_proxy *proxy, struct wl_proxy *output) {
    (void)proxy, (void)output;
    wd_surface *surface = data;
    wd_display *display = surface->display;
    if (display->callbacks.entered) display->callbacks.entered(display->callbacks.context, surface, 0);
}
static void (*surface_listener[])(void) = {(void (*)(void))surface_enter, (void (*)(void))surface_leave};

wd_surface *wd_layer_surface(wd_display *display, uint32_t output_id, uint32_t layer, uint32_t anchor, const int32_t margins[4],
                             uint32_t width, uint32_t height, const char *namespace_name) {
    int slot = -1;
    for (int index = 0; index < MAX_SURFACES && slot < 0; index++)
        if (!display->surfaces[index]) slot = index;
    if (slot < 0) return NULL;
    struct output *output = output_id ? output_with_id(display, output_id) : NULL;
    if (output_id && !output) return NULL;
    wd_surface *surface = calloc(1, sizeof *surface);
    if (!surface) return NULL;
    surface->display = display;
    surface->surface = wl.proxy_marshal_flags(display->compositor, 0, wl.surface, display->compositor_version, 0, NULL);
    if (!surface->surface) {
        free(surface);
        return NULL;
    }
    wl.proxy_add_listener(surface->surface, surface_listener, surface);
    surface->layer = wl.proxy_marshal_flags(display->layer_shell, 0, &layer_surface_interface, VERSION(display->layer_shell), 0, NULL,
                                           surface->surface, output ? output->proxy : NULL, layer, namespace_name);
    if (!surface->layer) {
        wl.proxy_marshal_flags(surface->surface, 0, NULL, display->compositor_version, WL_MARSHAL_FLAG_DESTROY);
        free(surface);
        return NULL;
    }
    wl.proxy_add_listener(surface->layer, layer_listener, surface);
    uint32_t version = VERSION(surface->layer);
    wl.proxy_marshal_flags(surface->layer, 0, NULL, version, 0, width, height);
    wl.proxy_marshal_flags(surface->layer, 1, NULL, version, 0, anchor);
    wl.proxy_marshal_flags(surface->layer, 2, NULL, version, 0, 0);
    wl.proxy_marshal_flags(surface->layer, 3, NULL, version, 0, margins[0], margins[1], margins[2], margins[3]);
    wl.proxy_marshal_flags(surface->layer, 4, NULL, version, 0, 0);
    // No input anywhere until something is drawn; the first commit, without a buffer, asks for a configure.
    struct wl_proxy *region = wl.proxy_marshal_flags(display->compositor, 1, wl.region, display->compositor_version, 0, NULL);
    if (region) {
        wl.proxy_marshal_flags(surface->surface, 5, NULL, display->compositor_version, 0, region);
        wl.proxy_marshal_flags(region, 0, NULL, display->compositor_version, WL_MARSHAL_FLAG_DESTROY);
    }
    wl.proxy_marshal_flags(surface->surface, 6, NULL, display->compositor_version, 0);
    display->surfaces[slot] = surface;
    wl.display_flush(display->display);
    return surface;
}

void wd_surface_resize(wd_surface *surface, uint32_t width, uint32_t height, const int32_t margins[4]) {
    uint32_t version = VERSION(surface->layer);
    wl.proxy_marshal_flags(surface->layer, 0, NULL, version, 0, width, height);
    wl.proxy_marshal_flags(surface->layer, 3, NULL, version, 0, margins[0], margins[1], margins[2], margins[3]);
    wl.proxy_marshal_flags(surface->surface, 6, NULL, surface->display->compositor_version, 0);
    wl.display_flush(surface->display->display);
}

int wd_surface_configured(const wd_surface *surface) { return surface->configured; }

void wd_surface_destroy(wd_surface *surface) {
    if (!surface) return;
    wd_display *display = surface->display;
    for (int index = 0; index < MAX_SURFACES; index++)
        if (display->surfaces[index] == surface) display->surfaces[index] = NULL;
    if (display->hovered == surface) display->hovered = NULL;
    for (int index = 0; index < surface->tile_count; index++) {
        wl.proxy_marshal_flags(surface->tiles[index].subsurface, 0, NULL, 1, WL_MARSHAL_FLAG_DESTROY);
        wl.proxy_marshal_flags(surface->tiles[index].surface, 0, NULL, display->compositor_version, WL_MARSHAL_FLAG_DESTROY);
    }
    wl.proxy_marshal_flags(surface->layer, 7, NULL, VERSION(surface->layer), WL_MARSHAL_FLAG_DESTROY);
    wl.proxy_marshal_flags(surface->surface, 0, NULL, display->compositor_version, WL_MARSHAL_FLAG_DESTROY);
    wl.display_flush(display->display);
    free(surface);
}

static void buffer_release(void *data, struct wl_proxy *buffer) {
    (void)data;
    wl.proxy_marshal_flags(buffer, 0, NULL, VERSION(buffer), WL_MARSHAL_FLAG_DESTROY);
}
static void (*buffer_listener[])(void) = {(void (*)(void))buffer_release};

// A buffer of `width` × `height` pixels (`stride` bytes a row) holding a copy of `pixels` (NULL:
// transparent), in shared memory the compositor alone keeps once it is sent: the client unmaps it.
static struct wl_proxy *shared_buffer(wd_display *display, const uint8_t *pixels, int32_t width, int32_t height, int32_t stride,
                                      char *error, size_t error_size) {
    size_t size = (size_t)width * (size_t)height * 4;
    int fd = memfd_create("widgets-desktop", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)size) != 0) {
        snprintf(error, error_size, "cannot make a shared-memory buffer of %zu bytes: %s", size, strerror(errno));
        if (fd >= 0) close(fd);
        return NULL;
    }
    if (pixels) {
        uint8_t *memory = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (memory == MAP_FAILED) {
            snprintf(error, error_size, "cannot map a shared-memory buffer of %zu bytes: %s", size, strerror(errno));
            close(fd);
            return NULL;
        }
        for (int32_t row = 0; row < height; row++) memcpy(memory + (size_t)row * width * 4, pixels + (size_t)row * stride, (size_t)width * 4);
        munmap(memory, size);
    }
    struct wl_proxy *pool = wl.proxy_marshal_flags(display->shm, 0, wl.shm_pool, VERSION(display->shm), 0, NULL, fd, (int32_t)size);
    close(fd);  // libwayland sent a duplicate
    if (!pool) {
        snprintf(error, error_size, "the compositor's shared-memory pool could not be made");
        return NULL;
    }
    struct wl_proxy *buffer = wl.proxy_marshal_flags(pool, 0, wl.buffer, VERSION(pool), 0, NULL, 0, width, height, width * 4, 0 /* ARGB8888 */);
    wl.proxy_marshal_flags(pool, 1, NULL, VERSION(pool), WL_MARSHAL_FLAG_DESTROY);
    if (!buffer) {
        snprintf(error, error_size, "the compositor's buffer could not be made");
        return NULL;
    }
    wl.proxy_add_listener(buffer, buffer_listener, NULL);
    return buffer;
}

int wd_tile(wd_surface *surface, int index, int32_t x, int32_t y, const uint8_t *pixels, int32_t width, int32_t height, int32_t stride,
            int32_t scale, char *error, size_t error_size) {
    wd_display *display = surface->display;
    uint32_t version = display->compositor_version;
    if (index >= MAX_TILES) {
        snprintf(error, error_size, "at most %d widgets are shown on a Wayland surface, not %d", MAX_TILES, index + 1);
        return -1;
    }
    if (width <= 0 || height <= 0 || (pixels && stride < width * 4) || scale < 1 || index < 0 || index > surface->tile_count) {
        snprintf(error, error_size, "cannot show a tile of %d x %d pixels at scale %d as widget %d", width, height, scale, index);
        return -1;
    }
    struct tile *tile = &surface->tiles[index];
    if (index == surface->tile_count) {
        tile->surface = wl.proxy_marshal_flags(display->compositor, 0, wl.surface, version, 0, NULL);
        if (!tile->surface) {
            snprintf(error, error_size, "the compositor could not make a surface for widget %d", index);
            return -1;
        }
        tile->subsurface = wl.proxy_marshal_flags(display->subcompositor, 1, wl.subsurface, 1, 0, NULL, tile->surface, surface->surface);
        if (!tile->subsurface) {
            wl.proxy_marshal_flags(tile->surface, 0, NULL, version, WL_MARSHAL_FLAG_DESTROY);
            snprintf(error, error_size, "the compositor could not make a subsurface for widget %d", index);
            return -1;
        }
        // Its drawings show as they are committed, not with the layer surface's.
        wl.proxy_marshal_flags(tile->subsurface, 5, NULL, 1, 0);
        tile->x = tile->y = INT32_MIN;
        surface->tile_count++;
    }
    // A new place takes effect with the layer surface's next commit (wd_surface_commit).
    if (tile->x != x || tile->y != y) {
        wl.proxy_marshal_flags(tile->subsurface, 1, NULL, 1, 0, x, y);
        tile->x = x, tile->y = y;
    }
    struct wl_proxy *buffer = shared_buffer(display, pixels, width, height, stride, error, error_size);
    if (!buffer) return -1;
    if (version >= 3) wl.proxy_marshal_flags(tile->surface, 8, NULL, version, 0, scale);
    wl.proxy_marshal_flags(tile->surface, 1, NULL, version, 0, buffer, 0, 0);
    if (version >= 4)
        wl.proxy_marshal_flags(tile->surface, 9, NULL, version, 0, 0, 0, width, height);
    else
        wl.proxy_marshal_flags(tile->surface, 2, NULL, version, 0, 0, 0, width / scale, height / scale);
    wl.proxy_marshal_flags(tile->surface, 6, NULL, version, 0);
    return 0;
}

int wd_surface_commit(wd_surface *surface, int count, char *error, size_t error_size) {
    wd_display *display = surface->display;
    uint32_t version = display->compositor_version;
    if (count < 0) count = 0;
    while (surface->tile_count > count) {
        struct tile *tile = &surface->tiles[--surface->tile_count];
        if (display->hovered == surface && display->hovered_tile == surface->tile_count) display->hovered = NULL;
        wl.proxy_marshal_flags(tile->subsurface, 0, NULL, 1, WL_MARSHAL_FLAG_DESTROY);
        wl.proxy_marshal_flags(tile->surface, 0, NULL, version, WL_MARSHAL_FLAG_DESTROY);
        *tile = (struct tile){0};
    }
    if (surface->needs_ack) {
        wl.proxy_marshal_flags(surface->layer, 6, NULL, VERSION(surface->layer), 0, surface->pending_serial);
        surface->needs_ack = 0;
    }
    if (!surface->mapped) {
        // The layer surface is mapped by a buffer of its own: one transparent pixel, taking no input
        // (its tiles take it where widgets are).
        struct wl_proxy *buffer = shared_buffer(display, NULL, 1, 1, 4, error, error_size);
        if (!buffer) return -1;
        wl.proxy_marshal_flags(surface->surface, 1, NULL, version, 0, buffer, 0, 0);
        wl.proxy_marshal_flags(surface->surface, 2, NULL, version, 0, 0, 0, 1, 1);
        surface->mapped = 1;
    }
    wl.proxy_marshal_flags(surface->surface, 6, NULL, version, 0);
    if (wl.display_flush(display->display) < 0 && errno != EAGAIN) {
        snprintf(error, error_size, "the connection to the Wayland compositor was lost (%s)", strerror(errno));
        return -1;
    }
    return 0;
}

static volatile sig_atomic_t termination_requested;
static int termination_fd = -1;
static void note_termination(int signal) {
    (void)signal;
    termination_requested = 1;
    // Whichever thread the signal came to, the one waiting in wd_dispatch wakes.
    uint64_t one = 1;
    if (termination_fd >= 0) (void)!write(termination_fd, &one, sizeof one);
}

void wd_catch_termination(int wake_fd) {
    termination_fd = wake_fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = note_termination;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: a poll waiting is interrupted
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
    // Taken by this thread even when the process was started with them blocked (a mask is inherited:
    // libdispatch's worker threads, which a parent may spawn from, block nearly every signal).
    sigset_t termination;
    sigemptyset(&termination);
    sigaddset(&termination, SIGINT);
    sigaddset(&termination, SIGTERM);
    pthread_sigmask(SIG_UNBLOCK, &termination, NULL);
}

int wd_termination_requested(void) { return termination_requested != 0; }

void wd_name_thread(const char *name) { prctl(PR_SET_NAME, name, 0, 0, 0); }

int wd_thread_id(void) { return (int)gettid(); }

int wd_wake_fd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }

// MARK: - Tests

static struct wl_proxy *virtual_pointer(wd_display *display) {
    if (!display->virtual_pointer && display->pointer_manager)
        display->virtual_pointer = wl.proxy_marshal_flags(display->pointer_manager, 0, &virtual_pointer_interface, 1, 0, display->seat, NULL);
    return display->virtual_pointer;
}

int wd_virtual_move(wd_display *display, uint32_t x, uint32_t y, uint32_t extent_width, uint32_t extent_height) {
    struct wl_proxy *pointer = virtual_pointer(display);
    if (!pointer) return -1;
    wl.proxy_marshal_flags(pointer, 1, NULL, 1, 0, 0u, x, y, extent_width, extent_height);
    wl.proxy_marshal_flags(pointer, 4, NULL, 1, 0);
    return wl.display_roundtrip(display->display) < 0 ? -1 : 0;
}

int wd_virtual_button(wd_display *display, int secondary, int pressed) {
    struct wl_proxy *pointer = virtual_pointer(display);
    if (!pointer) return -1;
    wl.proxy_marshal_flags(pointer, 2, NULL, 1, 0, 0u, secondary ? 0x111u /* BTN_RIGHT */ : 0x110u /* BTN_LEFT */, pressed ? 1u : 0u);
    wl.proxy_marshal_flags(pointer, 4, NULL, 1, 0);
    return wl.display_roundtrip(display->display) < 0 ? -1 : 0;
}
