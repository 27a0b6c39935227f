/*
 * widget_abi.h: the whole contract between a widget host and a widget bundle.
 *
 * A widget bundle is a shared object that exports one function, `widget_bundle_entry`, returning a
 * pointer to a `widget_bundle_t`. Nothing Swift-specific crosses this boundary: a bundle written in
 * C, or in Swift against the WidgetKit SDK, loads into any host of the same ABI major version.
 * docs/ABI.md is the prose companion of this header; where they disagree, this header wins.
 *
 * Conventions used below:
 *  - [thread: X] says on which thread a function may be called.
 *  - Every struct that may grow starts (after any version field) with `struct_size`, the
 *    `sizeof` of the struct as the writer compiled it. A reader never touches a field that lies
 *    beyond `struct_size`; a minor ABI version only ever appends fields.
 *  - Strings are NUL-terminated UTF-8. Ownership is stated beside every pointer.
 */
#ifndef WIDGET_ABI_H
#define WIDGET_ABI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ABI version. A host loads a bundle only when the majors are equal and the bundle's minor is
 * not above the host's (an older bundle is accepted; a newer one may rely on what the host lacks). */
#define WIDGET_ABI_VERSION_MAJOR 1
#define WIDGET_ABI_VERSION_MINOR 4

/* The name of the one symbol a bundle exports. */
#define WIDGET_BUNDLE_ENTRY_SYMBOL "widget_bundle_entry"

typedef struct widget_abi_version {
    uint32_t major;
    uint32_t minor;
} widget_abi_version_t;

/* Widget families. A descriptor's `families` is a bit mask of (1u << family). */
typedef enum widget_family {
    WIDGET_FAMILY_SYSTEM_SMALL = 0,
    WIDGET_FAMILY_SYSTEM_MEDIUM = 1,
    WIDGET_FAMILY_SYSTEM_LARGE = 2,
    WIDGET_FAMILY_SYSTEM_EXTRA_LARGE = 3,
    WIDGET_FAMILY_ACCESSORY_CIRCULAR = 4,
    WIDGET_FAMILY_ACCESSORY_RECTANGULAR = 5,
    WIDGET_FAMILY_ACCESSORY_INLINE = 6,
    WIDGET_FAMILY_COUNT = 7
} widget_family_t;

#define WIDGET_FAMILY_MASK(family) (1u << (uint32_t)(family))
#define WIDGET_FAMILIES_SYSTEM                                                                     \
    (WIDGET_FAMILY_MASK(WIDGET_FAMILY_SYSTEM_SMALL) | WIDGET_FAMILY_MASK(WIDGET_FAMILY_SYSTEM_MEDIUM) | \
     WIDGET_FAMILY_MASK(WIDGET_FAMILY_SYSTEM_LARGE) | WIDGET_FAMILY_MASK(WIDGET_FAMILY_SYSTEM_EXTRA_LARGE))

/* How a widget is configured: which of Apple's configuration types declared it. */
typedef enum widget_configuration_kind {
    WIDGET_CONFIGURATION_STATIC = 0,     /* StaticConfiguration */
    WIDGET_CONFIGURATION_APP_INTENT = 1, /* AppIntentConfiguration */
    WIDGET_CONFIGURATION_INTENT = 2      /* IntentConfiguration (SiriKit style) */
} widget_configuration_kind_t;

/* Descriptor flags. */
#define WIDGET_FLAG_CONTENT_MARGINS_DISABLED (1u << 0)

/* One widget a bundle registers. The bundle owns the descriptor and its strings; they need only stay
 * valid for the duration of the `register_widget` call (the host copies them). */
typedef struct widget_descriptor {
    uint32_t struct_size;               /* sizeof(widget_descriptor_t) */
    const char *kind;                   /* unique identifier, non-empty, e.g. "com.example.game-status" */
    const char *display_name;           /* configurationDisplayName; may be NULL (then empty) */
    const char *description;            /* description; may be NULL (then empty) */
    uint32_t families;                  /* supportedFamilies, a non-zero WIDGET_FAMILY_MASK union */
    uint32_t configuration_kind;        /* a widget_configuration_kind_t */
    const char *configuration_name;     /* the intent type's name, NULL for static widgets */
    uint32_t flags;                     /* WIDGET_FLAG_* */

    /* --- ABI 1.2 --- (read only when struct_size covers it) */

    /* A configurable widget's parameters, as JSON (docs/CONFIGURATION.md): the intent's title and
     * description, and each parameter in order with its title, type, default, whether it is
     * optional, its fixed cases, and whether its options are dynamic. NULL for static widgets. */
    const char *configuration_schema;
} widget_descriptor_t;

typedef enum widget_log_level {
    WIDGET_LOG_DEBUG = 0,
    WIDGET_LOG_INFO = 1,
    WIDGET_LOG_WARNING = 2,
    WIDGET_LOG_ERROR = 3
} widget_log_level_t;

/* What the host offers a bundle. The host owns this struct; it stays valid until the host has
 * returned from the bundle's `shutdown` (in practice: for the life of the process). */
typedef struct widget_host {
    widget_abi_version_t abi_version; /* the host's ABI version */
    uint32_t struct_size;             /* sizeof(widget_host_t) */
    void *host_data;                  /* the host's; a bundle never reads or writes it */

    /* Registers one widget. Returns false when the host refused it (the host reports why, naming the
     * bundle; the bundle should carry on registering the others).
     * [thread: only during `initialize`, on the thread that called it] */
    bool (*register_widget)(const struct widget_host *host, const widget_descriptor_t *descriptor);

    /* Writes a diagnostic line, attributed to the bundle. `message` is borrowed for the call.
     * [thread: any] */
    void (*log)(const struct widget_host *host, widget_log_level_t level, const char *message);
} widget_host_t;

/* What a request asks for. */
typedef enum widget_request_kind {
    WIDGET_REQUEST_PLACEHOLDER = 0, /* placeholder(in:): one entry, must be quick */
    WIDGET_REQUEST_SNAPSHOT = 1,    /* getSnapshot(in:completion:): one entry */
    WIDGET_REQUEST_TIMELINE = 2,    /* getTimeline(in:completion:): entries and a reload policy */
    /* ABI 1.2, for configurable widgets only: */
    WIDGET_REQUEST_OPTIONS = 3,        /* the choices for the parameter `parameter` names */
    WIDGET_REQUEST_RECOMMENDATIONS = 4, /* recommendations(): preconfigured instances */
    /* ABI 1.3: */
    WIDGET_REQUEST_OPEN_URL = 5,      /* a deep link was tapped or opened: `url` (the bundle's onOpenURL) */
    WIDGET_REQUEST_PERFORM_INTENT = 6 /* a Button(intent:) or Toggle was tapped: perform `intent` */
} widget_request_kind_t;

/* The appearance a widget's views are built for (SwiftUI's `colorScheme`), ABI 1.4. */
typedef enum widget_color_scheme {
    WIDGET_COLOR_SCHEME_LIGHT = 0,
    WIDGET_COLOR_SCHEME_DARK = 1
} widget_color_scheme_t;

/* How the host draws a widget (WidgetKit's `widgetRenderingMode`), ABI 1.4. */
typedef enum widget_rendering_mode {
    WIDGET_RENDERING_MODE_FULL_COLOR = 0, /* as the views give their colours: the Home Screen */
    WIDGET_RENDERING_MODE_ACCENTED = 1,   /* tinted: views marked widgetAccentable in the accent colour, the rest in one */
    WIDGET_RENDERING_MODE_VIBRANT = 2     /* desaturated: the Lock Screen's accessory widgets */
} widget_rendering_mode_t;

/* A request the host makes of one widget's provider. Owned by the host; valid only for the duration
 * of the `request` call (a bundle that answers later copies what it needs first). */
typedef struct widget_request {
    uint32_t struct_size;     /* sizeof(widget_request_t) */
    uint32_t request_kind;    /* a widget_request_kind_t */
    const char *widget_kind;  /* the kind of a widget this bundle registered */
    uint32_t family;          /* a widget_family_t the widget supports */
    bool is_preview;          /* TimelineProviderContext.isPreview (gallery, placeholder) */
    double display_width;     /* TimelineProviderContext.displaySize, in points */
    double display_height;
    const char *configuration; /* the instance's configuration as JSON (docs/ABI.md); "{}" when none */

    /* --- ABI 1.2 --- (read only when struct_size covers it) */
    const char *parameter; /* WIDGET_REQUEST_OPTIONS: the parameter's name; otherwise NULL */

    /* --- ABI 1.3 --- (read only when struct_size covers it) */
    /* WIDGET_REQUEST_OPEN_URL: the URL, as written in the widget's view (widgetURL or Link) or given
     * to `widgets open`; otherwise NULL. `widget_kind` names the widget tapped, or, for a URL opened
     * without a widget, the bundle's first widget: the request runs on that provider's queue. */
    const char *url;
    /* WIDGET_REQUEST_PERFORM_INTENT: the intent as the view recorded it, JSON
     * {"type": "...", "parameters": {...}}; otherwise NULL. `configuration` is the tapped instance's. */
    const char *intent;

    /* --- ABI 1.4 --- (read only when struct_size covers it) */
    /* The environment the entries' views are built for. A bundle given an older request builds them
     * for light, full colour, with the container background. */
    uint32_t color_scheme;           /* a widget_color_scheme_t */
    uint32_t rendering_mode;         /* a widget_rendering_mode_t */
    bool shows_container_background; /* false where the system removes it (the Lock Screen) */
} widget_request_t;

/* Result status. */
typedef enum widget_status {
    WIDGET_STATUS_OK = 0,
    WIDGET_STATUS_ERROR = 1 /* the provider failed; `error_message` says why */
} widget_status_t;

/* The answer to one request. Owned by the bundle and valid only for the duration of the completion
 * call: the host copies what it keeps before the completion returns. */
typedef struct widget_result {
    uint32_t struct_size;      /* sizeof(widget_result_t) */
    int32_t status;            /* a widget_status_t */
    const char *data;          /* on OK: the result as UTF-8 JSON (docs/ABI.md), not NUL-terminated */
    size_t length;             /* bytes at `data` */
    const char *error_message; /* on ERROR: a one-line reason; may be NULL */
} widget_result_t;

/* Delivers the result of one request. Call it exactly once per request, from any thread, at any time
 * after `request` was entered (also before `request` returns). A second call for the same request,
 * or a call after the host gave up waiting, is ignored and reported; it never crashes the host.
 * `context` is the host's opaque token from the request; pass it back unchanged.
 * [thread: any] */
typedef void (*widget_completion_fn)(void *context, const widget_result_t *result);

/* What a bundle exports, through `widget_bundle_entry`. Owned by the bundle; it must stay valid and
 * unchanged for the life of the process (a bundle is never unloaded). */
typedef struct widget_bundle {
    /* Checked before anything else: the host calls no function of a bundle whose major differs. */
    widget_abi_version_t abi_version; /* set to {WIDGET_ABI_VERSION_MAJOR, WIDGET_ABI_VERSION_MINOR} */
    uint32_t struct_size;             /* sizeof(widget_bundle_t) */
    const char *name;                 /* a human name for the bundle, e.g. "Game widgets"; may be NULL */
    const char *built_with;           /* the toolchain that built it, e.g. "swift-6.3" or "c"; may be NULL */

    /* Registers the bundle's widgets through host->register_widget, in the order they should be
     * listed. Returns true on success. On failure, writes a one-line reason (NUL-terminated,
     * truncated to fit) into `error` of `error_capacity` bytes, and the host loads nothing of it.
     * Called before any request. A host that loads the same file twice in one process (a bundle is
     * never unloaded, so it gets the same image) calls it again: register the same widgets again.
     * [thread: any; never concurrently with itself] */
    bool (*initialize)(const widget_host_t *host, char *error, size_t error_capacity);

    /* Asks a provider for a placeholder, snapshot or timeline. Answers through `completion`
     * (exactly once, see widget_completion_fn), now or later. The host never calls `request`
     * concurrently for the same widget kind; it may for different kinds.
     * [thread: any host thread, after a successful initialize] */
    void (*request)(const widget_request_t *request, widget_completion_fn completion, void *context);

    /* Optional (may be NULL): called when a host that is done with the bundle still has time to
     * say so; a host may also simply exit without calling it. Pending completions may still
     * arrive and are ignored. [thread: any, at most once] */
    void (*shutdown)(void);

    /* --- ABI 1.1 --- (read only when struct_size covers it) */

    /* The most heap, in bytes, each of this bundle's providers may hold; 0 for the host's limit.
     * It can only lower the host's limit (30 MB by default), never raise it. */
    uint64_t memory_limit;

    /* --- ABI 1.3 --- (read only when struct_size covers it) */

    /* The URL schemes whose links this bundle opens (as an app's Info.plist declares URL types),
     * a NULL-terminated array of lowercase schemes, e.g. {"mygame", NULL}; NULL for none. `widgets
     * open URL` sends a URL to the bundle claiming its scheme; a tap in a widget sends its URL to the
     * widget's own bundle. Answer WIDGET_REQUEST_OPEN_URL with OK and any JSON object, or ERROR. */
    const char *const *url_schemes;
} widget_bundle_t;

/* The entry symbol. It must do nothing but return a pointer to the bundle's static
 * `widget_bundle_t`; the host calls it right after dlopen and checks `abi_version` first.
 * [thread: any] */
typedef const widget_bundle_t *(*widget_bundle_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* WIDGET_ABI_H */
