// The X11 side of `widgets desktop` (see x11_desktop.h), over libxcb and libxcb-shape loaded with
// dlopen. The X protocol's structures used here are its wire format (fixed by the protocol), declared
// as xcb declares them.
#define _GNU_SOURCE
#include "x11_desktop.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

// MARK: - xcb's ABI

typedef struct xcb_connection_t xcb_connection_t;
typedef struct { unsigned int sequence; } xcb_void_cookie_t;
typedef struct { unsigned int sequence; } xcb_intern_atom_cookie_t;
typedef struct { unsigned int sequence; } xcb_get_image_cookie_t;
typedef struct { unsigned int sequence; } xcb_get_property_cookie_t;
typedef struct {
    uint8_t response_type, format;
    uint16_t sequence;
    uint32_t length, type, bytes_after, value_len;
    uint8_t pad0[12];
} xcb_get_property_reply_t;
typedef struct {
    uint8_t response_type, pad0;
    uint16_t sequence;
    uint32_t window, atom, time;
    uint8_t state, pad1[3];
} xcb_property_notify_event_t;
// RandR 1.5's monitors (libxcb-randr, optional: without it the screen is one monitor).
typedef struct xcb_extension_t xcb_extension_t;
typedef struct { uint8_t response_type, pad0; uint16_t sequence; uint32_t length; uint8_t present, major_opcode, first_event, first_error; } xcb_query_extension_reply_t;
typedef struct { unsigned int sequence; } xcb_randr_get_monitors_cookie_t;
typedef struct { unsigned int sequence; } xcb_randr_query_version_cookie_t;
typedef struct { uint8_t response_type, pad0; uint16_t sequence; uint32_t length, major_version, minor_version; uint8_t pad1[16]; } xcb_randr_query_version_reply_t;
typedef struct { unsigned int sequence; } xcb_get_atom_name_cookie_t;
typedef struct { uint8_t response_type, pad0; uint16_t sequence; uint32_t length, timestamp, monitors, outputs; uint8_t pad1[12]; } xcb_randr_get_monitors_reply_t;
typedef struct {
    uint32_t name;
    uint8_t primary, automatic;
    uint16_t outputs;
    int16_t x, y;
    uint16_t width, height;
    uint32_t width_in_millimeters, height_in_millimeters;
} xcb_randr_monitor_info_t;
typedef struct { uint8_t response_type, pad0; uint16_t sequence; uint32_t length; uint16_t name_len; uint8_t pad1[22]; } xcb_get_atom_name_reply_t;
typedef struct { size_t count; xcb_extension_t *ext; uint8_t opcode, isvoid; } xcb_protocol_request_t;
typedef struct { uint8_t response_type, pad0; uint16_t sequence; uint32_t pad[7]; uint32_t full_sequence; } xcb_generic_event_t;
typedef struct { uint8_t response_type, pad0; uint16_t sequence; uint32_t length; uint32_t atom; } xcb_intern_atom_reply_t;
typedef struct { uint8_t response_type, depth; uint16_t sequence; uint32_t length, visual; uint8_t pad0[20]; } xcb_get_image_reply_t;
typedef struct {
    uint32_t root, default_colormap, white_pixel, black_pixel, current_input_masks;
    uint16_t width_in_pixels, height_in_pixels, width_in_millimeters, height_in_millimeters, min_installed_maps, max_installed_maps;
    uint32_t root_visual;
    uint8_t backing_stores, save_unders, root_depth, allowed_depths_len;
} xcb_screen_t;
typedef struct { xcb_screen_t *data; int rem, index; } xcb_screen_iterator_t;
typedef struct { uint8_t depth, pad0; uint16_t visuals_len; uint8_t pad1[4]; } xcb_depth_t;
typedef struct { xcb_depth_t *data; int rem, index; } xcb_depth_iterator_t;
typedef struct {
    uint32_t visual_id;
    uint8_t class_, bits_per_rgb_value;
    uint16_t colormap_entries;
    uint32_t red_mask, green_mask, blue_mask;
    uint8_t pad0[4];
} xcb_visualtype_t;
typedef struct { xcb_visualtype_t *data; int rem, index; } xcb_visualtype_iterator_t;
typedef struct { int16_t x, y; uint16_t width, height; } xcb_rectangle_t;
typedef struct {
    uint8_t status, pad0;
    uint16_t protocol_major_version, protocol_minor_version, length;
    uint32_t release_number, resource_id_base, resource_id_mask, motion_buffer_size;
    uint16_t vendor_len, maximum_request_length;
    uint8_t roots_len, pixmap_formats_len, image_byte_order, bitmap_format_bit_order, bitmap_format_scanline_unit,
        bitmap_format_scanline_pad, min_keycode, max_keycode;
    uint8_t pad1[4];
} xcb_setup_t;
typedef struct { uint8_t depth, bits_per_pixel, scanline_pad, pad0[5]; } xcb_format_t;
typedef struct {
    uint8_t response_type, detail;
    uint16_t sequence;
    uint32_t time, root, event, child;
    int16_t root_x, root_y, event_x, event_y;
    uint16_t state;
    uint8_t same_screen, pad0;
} xcb_button_event_t;
typedef struct {
    uint8_t response_type, pad0;
    uint16_t sequence;
    uint32_t event, window, above_sibling;
    int16_t x, y;
    uint16_t width, height, border_width;
    uint8_t override_redirect, pad1;
} xcb_configure_notify_event_t;

enum {
    BUTTON_PRESS = 4, BUTTON_RELEASE = 5, EXPOSE = 12, CONFIGURE_NOTIFY = 22, PROPERTY_NOTIFY = 28, EVENT_PROPERTY_CHANGE = 4194304,
    ATOM_RESOURCE_MANAGER = 23,
    CW_BACK_PIXEL = 2, CW_BORDER_PIXEL = 8, CW_OVERRIDE_REDIRECT = 512, CW_EVENT_MASK = 2048, CW_COLORMAP = 8192,
    EVENT_BUTTON_PRESS = 4, EVENT_BUTTON_RELEASE = 8, EVENT_EXPOSURE = 32768, EVENT_STRUCTURE_NOTIFY = 131072,
    ATOM_ATOM = 4, ATOM_CARDINAL = 6, ATOM_STRING = 31, ATOM_WM_NAME = 39, ATOM_WM_CLASS = 67,
    CONFIG_X = 1, CONFIG_Y = 2, CONFIG_WIDTH = 4, CONFIG_HEIGHT = 8, CONFIG_STACK_MODE = 64, STACK_BELOW = 1,
    SHAPE_SET = 0, SHAPE_UNION = 1, SHAPE_BOUNDING = 0, SHAPE_INPUT = 2, IMAGE_Z_PIXMAP = 2, TRUE_COLOR = 4,
};

static struct {
    int loaded;
    xcb_connection_t *(*connect)(const char *, int *);
    void (*disconnect)(xcb_connection_t *);
    int (*connection_has_error)(xcb_connection_t *);
    int (*get_file_descriptor)(xcb_connection_t *);
    int (*flush)(xcb_connection_t *);
    uint32_t (*generate_id)(xcb_connection_t *);
    uint32_t (*get_maximum_request_length)(xcb_connection_t *);
    xcb_generic_event_t *(*poll_for_event)(xcb_connection_t *);
    xcb_generic_event_t *(*poll_for_queued_event)(xcb_connection_t *);
    xcb_format_t *(*setup_pixmap_formats)(const xcb_setup_t *);
    int (*setup_pixmap_formats_length)(const xcb_setup_t *);
    const xcb_setup_t *(*get_setup)(xcb_connection_t *);
    xcb_screen_iterator_t (*setup_roots_iterator)(const xcb_setup_t *);
    void (*screen_next)(xcb_screen_iterator_t *);
    xcb_depth_iterator_t (*screen_allowed_depths_iterator)(const xcb_screen_t *);
    void (*depth_next)(xcb_depth_iterator_t *);
    xcb_visualtype_iterator_t (*depth_visuals_iterator)(const xcb_depth_t *);
    void (*visualtype_next)(xcb_visualtype_iterator_t *);
    xcb_void_cookie_t (*create_colormap)(xcb_connection_t *, uint8_t, uint32_t, uint32_t, uint32_t);
    xcb_void_cookie_t (*create_window)(xcb_connection_t *, uint8_t, uint32_t, uint32_t, int16_t, int16_t, uint16_t, uint16_t, uint16_t, uint16_t,
                                       uint32_t, uint32_t, const void *);
    xcb_void_cookie_t (*change_window_attributes)(xcb_connection_t *, uint32_t, uint32_t, const void *);
    xcb_void_cookie_t (*change_property)(xcb_connection_t *, uint8_t, uint32_t, uint32_t, uint32_t, uint8_t, uint32_t, const void *);
    xcb_void_cookie_t (*map_window)(xcb_connection_t *, uint32_t);
    xcb_void_cookie_t (*configure_window)(xcb_connection_t *, uint32_t, uint16_t, const void *);
    xcb_void_cookie_t (*create_gc)(xcb_connection_t *, uint32_t, uint32_t, uint32_t, const void *);
    xcb_void_cookie_t (*put_image)(xcb_connection_t *, uint8_t, uint32_t, uint32_t, uint16_t, uint16_t, int16_t, int16_t, uint8_t, uint8_t,
                                   uint32_t, const uint8_t *);
    xcb_intern_atom_cookie_t (*intern_atom)(xcb_connection_t *, uint8_t, uint16_t, const char *);
    xcb_intern_atom_reply_t *(*intern_atom_reply)(xcb_connection_t *, xcb_intern_atom_cookie_t, void **);
    xcb_get_image_cookie_t (*get_image)(xcb_connection_t *, uint8_t, uint32_t, int16_t, int16_t, uint16_t, uint16_t, uint32_t);
    xcb_get_image_reply_t *(*get_image_reply)(xcb_connection_t *, xcb_get_image_cookie_t, void **);
    uint8_t *(*get_image_data)(const xcb_get_image_reply_t *);
    xcb_get_property_cookie_t (*get_property)(xcb_connection_t *, uint8_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t);
    xcb_get_property_reply_t *(*get_property_reply)(xcb_connection_t *, xcb_get_property_cookie_t, void **);
    void *(*get_property_value)(const xcb_get_property_reply_t *);
    int (*get_property_value_length)(const xcb_get_property_reply_t *);
    const xcb_query_extension_reply_t *(*get_extension_data)(xcb_connection_t *, xcb_extension_t *);
    xcb_get_atom_name_cookie_t (*get_atom_name)(xcb_connection_t *, uint32_t);
    xcb_get_atom_name_reply_t *(*get_atom_name_reply)(xcb_connection_t *, xcb_get_atom_name_cookie_t, void **);
    char *(*get_atom_name_name)(const xcb_get_atom_name_reply_t *);
    int (*get_atom_name_name_length)(const xcb_get_atom_name_reply_t *);
    // From libxcb-randr, when it loads.
    xcb_extension_t *randr_id;
    xcb_randr_query_version_cookie_t (*randr_query_version)(xcb_connection_t *, uint32_t, uint32_t);
    xcb_randr_query_version_reply_t *(*randr_query_version_reply)(xcb_connection_t *, xcb_randr_query_version_cookie_t, void **);
    xcb_randr_get_monitors_cookie_t (*randr_get_monitors)(xcb_connection_t *, uint32_t, uint8_t);
    xcb_randr_get_monitors_reply_t *(*randr_get_monitors_reply)(xcb_connection_t *, xcb_randr_get_monitors_cookie_t, void **);
    xcb_void_cookie_t (*randr_select_input)(xcb_connection_t *, uint32_t, uint16_t);
    unsigned int (*send_request)(xcb_connection_t *, int, struct iovec *, const xcb_protocol_request_t *);
    int (*get_image_data_length)(const xcb_get_image_reply_t *);
    xcb_void_cookie_t (*shape_rectangles)(xcb_connection_t *, uint8_t, uint8_t, uint8_t, uint32_t, int16_t, int16_t, uint32_t,
                                          const xcb_rectangle_t *);
} x;

static int load_xcb(char *error, size_t size) {
    if (x.loaded) return 0;
    const char *libraries[2][2] = {{"libxcb.so.1", "libxcb1"}, {"libxcb-shape.so.0", "libxcb-shape0"}};
    void *handles[2];
    for (int index = 0; index < 2; index++) {
        handles[index] = dlopen(libraries[index][0], RTLD_NOW | RTLD_LOCAL);
        if (!handles[index]) {
            const char *reason = dlerror();
            snprintf(error, size, "%s cannot be loaded (%s); install the Debian package %s", libraries[index][0], reason ? reason : "not found",
                     libraries[index][1]);
            return -1;
        }
    }
#define SYMBOL(library, field, name)                                                                \
    do {                                                                                            \
        *(void **)&x.field = dlsym(handles[library], name);                                         \
        if (!x.field) {                                                                             \
            snprintf(error, size, "%s has no %s", libraries[library][0], name);                     \
            return -1;                                                                              \
        }                                                                                           \
    } while (0)
    SYMBOL(0, connect, "xcb_connect");
    SYMBOL(0, disconnect, "xcb_disconnect");
    SYMBOL(0, connection_has_error, "xcb_connection_has_error");
    SYMBOL(0, get_file_descriptor, "xcb_get_file_descriptor");
    SYMBOL(0, flush, "xcb_flush");
    SYMBOL(0, generate_id, "xcb_generate_id");
    SYMBOL(0, get_maximum_request_length, "xcb_get_maximum_request_length");
    SYMBOL(0, poll_for_event, "xcb_poll_for_event");
    SYMBOL(0, poll_for_queued_event, "xcb_poll_for_queued_event");
    SYMBOL(0, setup_pixmap_formats, "xcb_setup_pixmap_formats");
    SYMBOL(0, setup_pixmap_formats_length, "xcb_setup_pixmap_formats_length");
    SYMBOL(0, get_setup, "xcb_get_setup");
    SYMBOL(0, setup_roots_iterator, "xcb_setup_roots_iterator");
    SYMBOL(0, screen_next, "xcb_screen_next");
    SYMBOL(0, screen_allowed_depths_iterator, "xcb_screen_allowed_depths_iterator");
    SYMBOL(0, depth_next, "xcb_depth_next");
    SYMBOL(0, depth_visuals_iterator, "xcb_depth_visuals_iterator");
    SYMBOL(0, visualtype_next, "xcb_visualtype_next");
    SYMBOL(0, create_colormap, "xcb_create_colormap");
    SYMBOL(0, create_window, "xcb_create_window");
    SYMBOL(0, change_window_attributes, "xcb_change_window_attributes");
    SYMBOL(0, change_property, "xcb_change_property");
    SYMBOL(0, map_window, "xcb_map_window");
    SYMBOL(0, configure_window, "xcb_configure_window");
    SYMBOL(0, create_gc, "xcb_create_gc");
    SYMBOL(0, put_image, "xcb_put_image");
    SYMBOL(0, intern_atom, "xcb_intern_atom");
    SYMBOL(0, intern_atom_reply, "xcb_intern_atom_reply");
    SYMBOL(0, get_image, "xcb_get_image");
    SYMBOL(0, get_image_reply, "xcb_get_image_reply");
    SYMBOL(0, get_image_data, "xcb_get_image_data");
    SYMBOL(0, get_image_data_length, "xcb_get_image_data_length");
    SYMBOL(0, get_property, "xcb_get_property");
    SYMBOL(0, get_property_reply, "xcb_get_property_reply");
    SYMBOL(0, get_property_value, "xcb_get_property_value");
    SYMBOL(0, get_property_value_length, "xcb_get_property_value_length");
    SYMBOL(1, shape_rectangles, "xcb_shape_rectangles");
    SYMBOL(0, get_extension_data, "xcb_get_extension_data");
    SYMBOL(0, get_atom_name, "xcb_get_atom_name");
    SYMBOL(0, get_atom_name_reply, "xcb_get_atom_name_reply");
    SYMBOL(0, get_atom_name_name, "xcb_get_atom_name_name");
    SYMBOL(0, get_atom_name_name_length, "xcb_get_atom_name_name_length");
    SYMBOL(0, send_request, "xcb_send_request");
#undef SYMBOL
    // Monitors are optional: without libxcb-randr (Debian's libxcb-randr0) the screen is one.
    void *randr = dlopen("libxcb-randr.so.0", RTLD_NOW | RTLD_LOCAL);
    if (randr) {
        x.randr_id = dlsym(randr, "xcb_randr_id");
        *(void **)&x.randr_query_version = dlsym(randr, "xcb_randr_query_version");
        *(void **)&x.randr_query_version_reply = dlsym(randr, "xcb_randr_query_version_reply");
        *(void **)&x.randr_get_monitors = dlsym(randr, "xcb_randr_get_monitors");
        *(void **)&x.randr_get_monitors_reply = dlsym(randr, "xcb_randr_get_monitors_reply");
        *(void **)&x.randr_select_input = dlsym(randr, "xcb_randr_select_input");
        if (!x.randr_id || !x.randr_query_version || !x.randr_query_version_reply || !x.randr_get_monitors || !x.randr_get_monitors_reply ||
            !x.randr_select_input) {
            x.randr_id = NULL;
            dlclose(randr);
        }
    }
    x.loaded = 1;
    return 0;
}

// MARK: - The display

struct wx_display {
    xcb_connection_t *connection;
    xcb_screen_t *screen;
    wx_callbacks callbacks;
    uint32_t window, gc, visual, colormap;
    uint8_t depth;
    int width, height;
    // RandR's first event code, when the server has RandR and libxcb-randr loaded; else 0.
    uint8_t randr_event;
    // The bounding and input shapes last set: a drawing that leaves them as they are sends neither.
    xcb_rectangle_t *shape, *input;
    size_t shape_count, input_count;
    // Bytes of a damaged rectangle's rows, copied together for a request.
    uint8_t *strip;
    size_t strip_size;
};

// Whether `count` rectangles at `rects` are the shape kept in `kept`; else keeps them. -1 when
// there is no memory to keep them (they are then sent).
static int same_shape(xcb_rectangle_t **kept, size_t *kept_count, const xcb_rectangle_t *rects, size_t count) {
    if (*kept && *kept_count == count && (count == 0 || memcmp(*kept, rects, count * sizeof *rects) == 0)) return 1;
    xcb_rectangle_t *copy = malloc((count ? count : 1) * sizeof *rects);
    free(*kept);
    *kept = copy;
    *kept_count = copy ? count : 0;
    if (!copy) return -1;
    if (count) memcpy(copy, rects, count * sizeof *rects);
    return 0;
}

static uint32_t atom(wx_display *display, const char *name) {
    xcb_intern_atom_reply_t *reply = x.intern_atom_reply(display->connection, x.intern_atom(display->connection, 0, (uint16_t)strlen(name), name), NULL);
    uint32_t value = reply ? reply->atom : 0;
    free(reply);
    return value;
}

wx_display *wx_connect(const char *name, const wx_callbacks *callbacks, char *error, size_t error_size) {
    if (load_xcb(error, error_size) != 0) return NULL;
    int number = 0;
    xcb_connection_t *connection = x.connect(name, &number);
    if (!connection || x.connection_has_error(connection)) {
        const char *shown = name ? name : getenv("DISPLAY");
        snprintf(error, error_size, "cannot connect to the X server%s%s%s", shown ? " at " : "", shown ? shown : "", shown ? "" : " (DISPLAY is not set)");
        if (connection) x.disconnect(connection);
        return NULL;
    }
    wx_display *display = calloc(1, sizeof *display);
    if (!display) {
        x.disconnect(connection);
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    display->connection = connection;
    display->callbacks = *callbacks;
    const xcb_setup_t *setup = x.get_setup(connection);
    xcb_screen_iterator_t screens = x.setup_roots_iterator(setup);
    for (int index = 0; index < number && screens.rem; index++) x.screen_next(&screens);
    if (!screens.rem) {
        snprintf(error, error_size, "the X server has no screen %d", number);
        wx_disconnect(display);
        return NULL;
    }
    display->screen = screens.data;
    // A 32-bit TrueColor visual, for an ARGB window a compositing manager blends; else the screen's
    // own, if it is TrueColor with 8 bits a channel.
    const xcb_visualtype_t *chosen = NULL, *root = NULL;
    for (xcb_depth_iterator_t depths = x.screen_allowed_depths_iterator(display->screen); depths.rem; x.depth_next(&depths)) {
        for (xcb_visualtype_iterator_t visuals = x.depth_visuals_iterator(depths.data); visuals.rem; x.visualtype_next(&visuals)) {
            if (visuals.data->visual_id == display->screen->root_visual) root = visuals.data;
            if (!chosen && depths.data->depth == 32 && visuals.data->class_ == TRUE_COLOR) {
                chosen = visuals.data;
                display->depth = 32;
            }
        }
    }
    if (!chosen) {
        chosen = root;
        display->depth = display->screen->root_depth;
    }
    // Pixels are sent as they are drawn: 32 bits a pixel, least significant byte first, 8 bits a
    // channel in the usual places. A server that stores them otherwise is said so, not drawn wrong.
    int bits = 0;
    const xcb_format_t *formats = x.setup_pixmap_formats(setup);
    for (int index = 0; index < x.setup_pixmap_formats_length(setup); index++)
        if (formats[index].depth == display->depth) bits = formats[index].bits_per_pixel;
    if (!chosen || chosen->class_ != TRUE_COLOR || chosen->red_mask != 0xff0000 || chosen->green_mask != 0xff00 || chosen->blue_mask != 0xff ||
        bits != 32 || setup->image_byte_order != 0) {
        snprintf(error, error_size,
                 "the X server's pixels (depth %d, %d bits a pixel, %s first) are not the 32-bit TrueColor this draws; "
                 "run the X server at depth 24 or 32",
                 display->depth, bits, setup->image_byte_order ? "most significant byte" : "least significant byte");
        wx_disconnect(display);
        return NULL;
    }
    display->visual = chosen->visual_id;
    // The screen's size changes are heard on the root window, and its resources' (Xft.dpi) too.
    uint32_t mask = EVENT_STRUCTURE_NOTIFY | EVENT_PROPERTY_CHANGE;
    x.change_window_attributes(connection, display->screen->root, CW_EVENT_MASK, &mask);
    // And its monitors' (RandR's screen change notification, sent when they are set or change).
    const xcb_query_extension_reply_t *randr = x.randr_id ? x.get_extension_data(connection, x.randr_id) : NULL;
    if (randr && randr->present) {
        // Monitors are RandR 1.5's: the version is agreed first, as the protocol asks.
        xcb_randr_query_version_reply_t *version = x.randr_query_version_reply(connection, x.randr_query_version(connection, 1, 5), NULL);
        if (version && (version->major_version > 1 || (version->major_version == 1 && version->minor_version >= 5))) {
            display->randr_event = randr->first_event;
            x.randr_select_input(connection, display->screen->root, 1 /* ScreenChangeNotify */);
        }
        free(version);
    }
    x.flush(connection);
    return display;
}

void wx_disconnect(wx_display *display) {
    if (!display) return;
    x.disconnect(display->connection);
    free(display->shape);
    free(display->input);
    free(display->strip);
    free(display);
}

void wx_screen_size(wx_display *display, int *width, int *height) {
    *width = display->screen->width_in_pixels;
    *height = display->screen->height_in_pixels;
}

static void handle(wx_display *display, xcb_generic_event_t *event);

int wx_dispatch(wx_display *display, int wake_fd, int timeout_ms, char *error, size_t error_size) {
    x.flush(display->connection);
    // Events libxcb read meanwhile (while writing a drawing, or waiting for a reply) are already off
    // the socket: handled now, and then no waiting.
    int queued = 0;
    xcb_generic_event_t *event;
    while ((event = x.poll_for_queued_event(display->connection))) {
        handle(display, event);
        queued = 1;
    }
    struct pollfd fds[2] = {{x.get_file_descriptor(display->connection), POLLIN, 0}, {wake_fd, POLLIN, 0}};
    int ready = poll(fds, wake_fd >= 0 ? 2 : 1, queued ? 0 : timeout_ms);
    if (ready < 0 && errno != EINTR) {
        snprintf(error, error_size, "cannot wait for the X server: %s", strerror(errno));
        return -1;
    }
    while ((event = x.poll_for_event(display->connection))) handle(display, event);
    if (x.connection_has_error(display->connection)) {
        snprintf(error, error_size, "the connection to the X server was lost");
        return -1;
    }
    return (ready > 0 && wake_fd >= 0 && (fds[1].revents & POLLIN)) ? 1 : 0;
}

static void handle(wx_display *display, xcb_generic_event_t *event) {
        switch (event->response_type & 0x7f) {
        case 0:
            // An error the server sent for a request: said, once, where -v shows it.
            if (display->callbacks.error) display->callbacks.error(display->callbacks.context, ((uint8_t *)event)[1]);
            break;
        case BUTTON_PRESS:
        case BUTTON_RELEASE: {
            xcb_button_event_t *button = (xcb_button_event_t *)event;
            if (button->event == display->window && display->callbacks.button)
                display->callbacks.button(display->callbacks.context, button->event_x, button->event_y, button->detail,
                                          (event->response_type & 0x7f) == BUTTON_PRESS);
            break;
        }
        case EXPOSE:
            if (display->callbacks.expose) display->callbacks.expose(display->callbacks.context);
            break;
        case CONFIGURE_NOTIFY: {
            xcb_configure_notify_event_t *configure = (xcb_configure_notify_event_t *)event;
            if (configure->window == display->screen->root) {
                display->screen->width_in_pixels = configure->width;
                display->screen->height_in_pixels = configure->height;
                if (display->callbacks.screen) display->callbacks.screen(display->callbacks.context, configure->width, configure->height);
            }
            break;
        }
        case PROPERTY_NOTIFY: {
            xcb_property_notify_event_t *property = (xcb_property_notify_event_t *)event;
            if (property->window == display->screen->root && property->atom == ATOM_RESOURCE_MANAGER && display->callbacks.resources)
                display->callbacks.resources(display->callbacks.context);
            break;
        }
        default:
            // RandR's screen change: the monitors may have changed (set, moved, a screen plugged in).
            if (display->randr_event && (event->response_type & 0x7f) == display->randr_event && display->callbacks.screen)
                display->callbacks.screen(display->callbacks.context, display->screen->width_in_pixels, display->screen->height_in_pixels);
            break;
        }
        free(event);
}

double wx_resource_dpi(wx_display *display) {
    // RESOURCE_MANAGER, the resources xrdb loaded (a desktop's settings daemon sets Xft.dpi there):
    // its text, 64 KiB at most, read for an "Xft.dpi:" line.
    xcb_get_property_reply_t *reply = x.get_property_reply(
        display->connection, x.get_property(display->connection, 0, display->screen->root, ATOM_RESOURCE_MANAGER, 0 /* any type */, 0, 16384), NULL);
    if (!reply) return 0;
    double dpi = 0;
    int length = x.get_property_value_length(reply);
    const char *text = x.get_property_value(reply);
    for (int start = 0; text && start < length;) {
        int end = start;
        while (end < length && text[end] != '\n') end++;
        const char *name = "Xft.dpi:";
        size_t name_length = strlen(name);
        if ((size_t)(end - start) > name_length && strncmp(text + start, name, name_length) == 0) {
            char value[32] = {0};
            int count = end - start - (int)name_length;
            memcpy(value, text + start + name_length, count < 31 ? (size_t)count : 31);
            dpi = strtod(value, NULL);
        }
        start = end + 1;
    }
    free(reply);
    return dpi > 0 && dpi < 10000 ? dpi : 0;
}

int wx_monitors(wx_display *display, wx_monitor *out, int capacity) {
    if (!display->randr_event) return -1;
    xcb_randr_get_monitors_reply_t *reply =
        x.randr_get_monitors_reply(display->connection, x.randr_get_monitors(display->connection, display->screen->root, 1), NULL);
    if (!reply) return -1;
    // The monitors follow the reply's 32 bytes, each with its outputs' ids after it.
    const uint8_t *next = (const uint8_t *)(reply + 1), *end = (const uint8_t *)reply + 32 + 4 * (size_t)reply->length;
    int count = 0;
    for (uint32_t index = 0; index < reply->monitors && next + sizeof(xcb_randr_monitor_info_t) <= end; index++) {
        const xcb_randr_monitor_info_t *monitor = (const xcb_randr_monitor_info_t *)next;
        next += sizeof *monitor + 4 * (size_t)monitor->outputs;
        if (count == capacity) break;
        wx_monitor *shown = &out[count++];
        shown->x = monitor->x, shown->y = monitor->y, shown->width = monitor->width, shown->height = monitor->height;
        shown->primary = monitor->primary;
        shown->name[0] = 0;
        xcb_get_atom_name_reply_t *name = x.get_atom_name_reply(display->connection, x.get_atom_name(display->connection, monitor->name), NULL);
        if (name) {
            int length = x.get_atom_name_name_length(name);
            if (length > (int)sizeof shown->name - 1) length = (int)sizeof shown->name - 1;
            memcpy(shown->name, x.get_atom_name_name(name), (size_t)length);
            shown->name[length] = 0;
            free(name);
        }
    }
    free(reply);
    return count;
}

int wx_set_monitor(wx_display *display, const char *name, int left, int top, int width, int height, int primary) {
    if (!display->randr_event) return -1;
    // RandR's SetMonitor (minor opcode 43), its request made here: libxcb-randr's own asserts in
    // libxcb 1.15 over the padding it makes for a monitor of no outputs.
    struct {
        uint8_t major, minor;
        uint16_t length;
        uint32_t window;
    } header = {0, 43, 0, display->screen->root};
    xcb_randr_monitor_info_t monitor = {atom(display, name), (uint8_t)primary, 0, 0, (int16_t)left, (int16_t)top, (uint16_t)width, (uint16_t)height, 0, 0};
    struct iovec parts[4] = {{NULL, 0}, {NULL, 0}, {&header, sizeof header}, {&monitor, sizeof monitor}};
    xcb_protocol_request_t request = {2, x.randr_id, 43, 1};
    x.send_request(display->connection, 0, parts + 2, &request);
    x.flush(display->connection);
    return x.connection_has_error(display->connection) ? -1 : 0;
}

int wx_delete_monitor(wx_display *display, const char *name) {
    if (!display->randr_event) return -1;
    // RandR's DeleteMonitor (minor opcode 44), made here as SetMonitor is.
    struct {
        uint8_t major, minor;
        uint16_t length;
        uint32_t window, name;
    } header = {0, 44, 0, display->screen->root, atom(display, name)};
    struct iovec parts[3] = {{NULL, 0}, {NULL, 0}, {&header, sizeof header}};
    xcb_protocol_request_t request = {1, x.randr_id, 44, 1};
    x.send_request(display->connection, 0, parts + 2, &request);
    x.flush(display->connection);
    return x.connection_has_error(display->connection) ? -1 : 0;
}

int wx_set_resources(wx_display *display, const char *text) {
    x.change_property(display->connection, 0 /* Replace */, display->screen->root, ATOM_RESOURCE_MANAGER, ATOM_STRING, 8, (uint32_t)strlen(text), text);
    x.flush(display->connection);
    return x.connection_has_error(display->connection) ? -1 : 0;
}

static void set_atoms(wx_display *display, const char *property, const char **names, int count) {
    uint32_t values[8];
    for (int index = 0; index < count && index < 8; index++) values[index] = atom(display, names[index]);
    x.change_property(display->connection, 0, display->window, atom(display, property), ATOM_ATOM, 32, (uint32_t)count, values);
}

int wx_place(wx_display *display, int left, int top, int width, int height, char *error, size_t error_size) {
    xcb_connection_t *connection = display->connection;
    if (width < 1 || height < 1 || width > 32767 || height > 32767) {
        snprintf(error, error_size, "cannot make a window of %d x %d pixels", width, height);
        return -1;
    }
    if (!display->window) {
        display->window = x.generate_id(connection);
        display->colormap = x.generate_id(connection);
        x.create_colormap(connection, 0, display->colormap, display->screen->root, display->visual);
        // In the order of their mask bits: background, border, events, colormap.
        uint32_t values[] = {0, 0, EVENT_EXPOSURE | EVENT_BUTTON_PRESS | EVENT_BUTTON_RELEASE, display->colormap};
        x.create_window(connection, display->depth, display->window, display->screen->root, (int16_t)left, (int16_t)top, (uint16_t)width,
                        (uint16_t)height, 0, 1 /* InputOutput */, display->visual, CW_BACK_PIXEL | CW_BORDER_PIXEL | CW_EVENT_MASK | CW_COLORMAP,
                        values);
        const char *title = "widgets";
        x.change_property(connection, 0, display->window, ATOM_WM_NAME, ATOM_STRING, 8, (uint32_t)strlen(title), title);
        x.change_property(connection, 0, display->window, ATOM_WM_CLASS, ATOM_STRING, 8, 16, "widgets\0Widgets\0");
        // A desktop window, below the others, on every workspace, in no task bar or pager (as conky's).
        const char *type[] = {"_NET_WM_WINDOW_TYPE_DESKTOP"};
        set_atoms(display, "_NET_WM_WINDOW_TYPE", type, 1);
        const char *state[] = {"_NET_WM_STATE_BELOW", "_NET_WM_STATE_STICKY", "_NET_WM_STATE_SKIP_TASKBAR", "_NET_WM_STATE_SKIP_PAGER"};
        set_atoms(display, "_NET_WM_STATE", state, 4);
        uint32_t all_desktops = 0xFFFFFFFF;
        x.change_property(connection, 0, display->window, atom(display, "_NET_WM_DESKTOP"), ATOM_CARDINAL, 32, 1, &all_desktops);
        // No decorations (Motif hints: flags = decorations, decorations = none).
        uint32_t motif[5] = {2, 0, 0, 0, 0};
        uint32_t motif_atom = atom(display, "_MOTIF_WM_HINTS");
        x.change_property(connection, 0, display->window, motif_atom, motif_atom, 32, 5, motif);
        display->gc = x.generate_id(connection);
        x.create_gc(connection, display->gc, display->window, 0, NULL);
        // Nothing shown or clickable until the first drawing.
        x.shape_rectangles(connection, SHAPE_SET, SHAPE_BOUNDING, 0, display->window, 0, 0, 0, NULL);
        x.shape_rectangles(connection, SHAPE_SET, SHAPE_INPUT, 0, display->window, 0, 0, 0, NULL);
        x.map_window(connection, display->window);
    }
    uint32_t values[] = {(uint32_t)left, (uint32_t)top, (uint32_t)width, (uint32_t)height, STACK_BELOW};
    x.configure_window(connection, display->window, CONFIG_X | CONFIG_Y | CONFIG_WIDTH | CONFIG_HEIGHT | CONFIG_STACK_MODE, values);
    display->width = width;
    display->height = height;
    x.flush(connection);
    return 0;
}

int wx_present(wx_display *display, const uint8_t *pixels, int width, int height, int stride, const int32_t *damage, int damage_count,
               const int32_t *input, int input_count, char *error, size_t error_size) {
    xcb_connection_t *connection = display->connection;
    if (!display->window || width != display->width || height != display->height) {
        snprintf(error, error_size, "the window is not %d x %d pixels", width, height);
        return -1;
    }
    // Shown where the drawing is not transparent: a rectangle for each run of such pixels in a row,
    // set first (pixels put where the window is not shaped yet would be lost).
    size_t capacity = 1024, used = 0;
    xcb_rectangle_t *runs = malloc(capacity * sizeof *runs);
    if (!runs) {
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    for (int y = 0; y < height; y++) {
        const uint32_t *line = (const uint32_t *)(pixels + (size_t)y * (size_t)stride);
        for (int x0 = 0; x0 < width;) {
            while (x0 < width && (line[x0] >> 24) == 0) x0++;
            int x1 = x0;
            while (x1 < width && (line[x1] >> 24) != 0) x1++;
            if (x1 > x0) {
                if (used == capacity) {
                    xcb_rectangle_t *grown = realloc(runs, 2 * capacity * sizeof *runs);
                    if (!grown) {
                        free(runs);
                        snprintf(error, error_size, "out of memory");
                        return -1;
                    }
                    runs = grown, capacity *= 2;
                }
                runs[used++] = (xcb_rectangle_t){(int16_t)x0, (int16_t)y, (uint16_t)(x1 - x0), 1};
            }
            x0 = x1;
        }
    }
    // In requests within the server's largest (in 4-byte units, less the header): set, then united.
    // Not sent when it is the shape already set (a timer's second leaves it as it was).
    size_t largest = (size_t)x.get_maximum_request_length(connection) * 4 - 64;
    size_t batch = largest / sizeof(xcb_rectangle_t);
    if (same_shape(&display->shape, &display->shape_count, runs, used) != 1) {
        x.shape_rectangles(connection, SHAPE_SET, SHAPE_BOUNDING, 0, display->window, 0, 0, (uint32_t)(used < batch ? used : batch), runs);
        for (size_t first = batch; first < used; first += batch)
            x.shape_rectangles(connection, SHAPE_UNION, SHAPE_BOUNDING, 0, display->window, 0, 0,
                               (uint32_t)(used - first < batch ? used - first : batch), runs + first);
    }
    free(runs);
    // The pixels of each damaged rectangle (all of them when none is given), in strips of rows
    // within the largest request: a rectangle narrower than the window has its rows copied together.
    int32_t whole[4] = {0, 0, width, height};
    if (damage_count <= 0) damage = whole, damage_count = 1;
    for (int index = 0; index < damage_count; index++) {
        int left = damage[4 * index], top = damage[4 * index + 1], right = left + damage[4 * index + 2], bottom = top + damage[4 * index + 3];
        if (left < 0) left = 0;
        if (top < 0) top = 0;
        if (right > width) right = width;
        if (bottom > height) bottom = height;
        if (right <= left || bottom <= top) continue;
        size_t row_bytes = (size_t)(right - left) * 4;
        int rows = (int)(largest / row_bytes);
        if (rows < 1) rows = 1;
        for (int row = top; row < bottom; row += rows) {
            int count = row + rows > bottom ? bottom - row : rows;
            const uint8_t *data = pixels + (size_t)row * (size_t)stride + (size_t)left * 4;
            if (row_bytes != (size_t)stride) {
                size_t needed = row_bytes * (size_t)count;
                if (needed > display->strip_size) {
                    uint8_t *grown = realloc(display->strip, needed);
                    if (!grown) {
                        snprintf(error, error_size, "out of memory");
                        return -1;
                    }
                    display->strip = grown, display->strip_size = needed;
                }
                for (int line = 0; line < count; line++)
                    memcpy(display->strip + (size_t)line * row_bytes, data + (size_t)line * (size_t)stride, row_bytes);
                data = display->strip;
            }
            x.put_image(connection, IMAGE_Z_PIXMAP, display->window, display->gc, (uint16_t)(right - left), (uint16_t)count, (int16_t)left,
                        (int16_t)row, 0, display->depth, (uint32_t)(row_bytes * (size_t)count), data);
        }
    }
    xcb_rectangle_t *areas = calloc((size_t)(input_count > 0 ? input_count : 1), sizeof *areas);
    if (!areas) {
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    for (int index = 0; index < input_count; index++)
        areas[index] = (xcb_rectangle_t){(int16_t)input[4 * index], (int16_t)input[4 * index + 1], (uint16_t)input[4 * index + 2],
                                         (uint16_t)input[4 * index + 3]};
    if (same_shape(&display->input, &display->input_count, areas, (size_t)input_count) != 1)
        x.shape_rectangles(connection, SHAPE_SET, SHAPE_INPUT, 0, display->window, 0, 0, (uint32_t)input_count, areas);
    free(areas);
    x.flush(connection);
    if (x.connection_has_error(connection)) {
        snprintf(error, error_size, "the connection to the X server was lost");
        return -1;
    }
    return 0;
}

void wx_hide(wx_display *display) {
    if (!display->window) return;
    static const xcb_rectangle_t none[1];
    // Kept as the shapes set, so that the next drawing sends its own.
    if (same_shape(&display->shape, &display->shape_count, none, 0) != 1)
        x.shape_rectangles(display->connection, SHAPE_SET, SHAPE_BOUNDING, 0, display->window, 0, 0, 0, NULL);
    if (same_shape(&display->input, &display->input_count, none, 0) != 1)
        x.shape_rectangles(display->connection, SHAPE_SET, SHAPE_INPUT, 0, display->window, 0, 0, 0, NULL);
    x.flush(display->connection);
}

int wx_capture(wx_display *display, int left, int top, int width, int height, uint8_t *out) {
    xcb_get_image_reply_t *reply = x.get_image_reply(
        display->connection,
        x.get_image(display->connection, IMAGE_Z_PIXMAP, display->screen->root, (int16_t)left, (int16_t)top, (uint16_t)width, (uint16_t)height,
                    0xFFFFFFFF),
        NULL);
    if (!reply) return -1;
    int length = x.get_image_data_length(reply);
    int result = length == width * height * 4 ? 0 : -1;
    if (result == 0) memcpy(out, x.get_image_data(reply), (size_t)length);
    free(reply);
    return result;
}
