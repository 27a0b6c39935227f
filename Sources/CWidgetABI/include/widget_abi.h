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
 *  - Versions: the host never sends a bundle a request kind, nor a request field, newer than the
 *    bundle's minor version (`widget_bundle_t.abi_version`): a request's `struct_size` is that
 *    version's size (WIDGET_REQUEST_SIZE_1_x). A bundle that meets a request kind it does not know
 *    (a newer host's, were that rule broken) answers it with WIDGET_STATUS_ERROR, never ignores it.
 *  - Lifetime: `initialize` comes before any request; `shutdown`, when a host calls it, comes after
 *    the last request has returned (completions still owed may arrive; they are ignored).
 *  - Every field's offset and every struct's size is pinned at the end of this header, for each
 *    minor version, on the 64-bit platforms hosts run on.
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
#define WIDGET_ABI_VERSION_MINOR 7

/* The name of the one symbol a bundle exports. */
#define WIDGET_BUNDLE_ENTRY_SYMBOL "widget_bundle_entry"

typedef struct widget_abi_version {
    uint32_t major;
    uint32_t minor;
} widget_abi_version_t;

/* The version this header defines, to put in `widget_bundle_t.abi_version` (or a host's own). */
#define WIDGET_ABI_VERSION_INIT { WIDGET_ABI_VERSION_MAJOR, WIDGET_ABI_VERSION_MINOR }

/* Whether a host of version `host` loads a bundle of version `bundle`: the majors are equal and the
 * bundle's minor is not above the host's. A host checks this before it calls any function of the
 * bundle, and before it reads any other field of its `widget_bundle_t`. */
static inline bool widget_abi_compatible(widget_abi_version_t host, widget_abi_version_t bundle) {
    return host.major == bundle.major && bundle.minor <= host.minor;
}

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
    WIDGET_CONFIGURATION_INTENT = 2,     /* IntentConfiguration (SiriKit style) */
    /* ABI 1.7: a Live Activity (ActivityConfiguration), not a widget: `kind` is its attributes
     * type's name (what `widgets activity start TYPE` and an app's Activity.request name), and it
     * is asked only WIDGET_REQUEST_ACTIVITY. `families` is SYSTEM_MEDIUM's mask (its Lock Screen
     * presentation is that wide); no schema. Hosts list it apart from the widgets. */
    WIDGET_CONFIGURATION_ACTIVITY = 3,
    /* ABI 1.7: a Control (ControlWidget: StaticControlConfiguration or AppIntentControlConfiguration),
     * not a widget: `kind` is the control's kind, and it is asked WIDGET_REQUEST_CONTROL (and, when
     * pressed, WIDGET_REQUEST_PERFORM_INTENT with its action). `families` is SYSTEM_SMALL's mask;
     * no schema. Hosts list it apart from the widgets. */
    WIDGET_CONFIGURATION_CONTROL = 4
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

    /* --- ABI 1.6 --- (read only when struct_size covers it) */

    /* The bundle as the host found it: the shared object's path, or, for a bundle with resources,
     * its directory (`NAME.widgetbundle`, holding NAME.so, Info.plist and the resources: see
     * docs/ABI.md, "Bundles with resources"). Not the path the shared object was mapped from (the
     * host loads it from an open descriptor). Owned by the host, valid for the life of the process.
     * [thread: any] */
    const char *bundle_path;
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
    WIDGET_REQUEST_PERFORM_INTENT = 6, /* a Button(intent:) or Toggle was tapped: perform `intent` */
    /* ABI 1.5: */
    /* The author's previews of the widget (Xcode's canvas), in every family they are written for
     * (the request's `family` is one the widget supports, and is not a filter). Answer OK with
     * {"previews": [{"name": "Rainy" or null, "family": "systemSmall", "entries": [...]}, ...]},
     * each preview's entries as a timeline's are (date, relevance, view); an empty list for none. */
    WIDGET_REQUEST_PREVIEWS = 7,
    /* ABI 1.7, for Live Activities only (WIDGET_CONFIGURATION_ACTIVITY): draw an activity.
     * `configuration` is {"id": "...", "attributes": {...}, "state": {...}, "isStale": bool}, the
     * attributes and content state as the app encoded them (Codable's JSON). Answer OK with each
     * presentation's view tree (as an entry's `view`): {"lockScreen": view, "compactLeading": view,
     * "compactTrailing": view, "minimal": view, "expanded": {"leading": view, "trailing": view,
     * "center": view, "bottom": view} (regions given only), "widgetURL": "..." or absent,
     * "backgroundTint": colour or absent, "keylineTint": colour or absent}. */
    WIDGET_REQUEST_ACTIVITY = 8,
    /* ABI 1.7, for Controls only (WIDGET_CONFIGURATION_CONTROL): the control as it is now (its value
     * provider's current value). Answer OK with {"template": "button" or "toggle", "label": view,
     * "valueLabel": view or absent, "isOn": bool (toggles), "action": the intent a press performs as
     * a view records one, "tint": colour or absent, "disabled": bool or absent}. A press is a
     * WIDGET_REQUEST_PERFORM_INTENT of that action; a toggle's with parameters.value its new state. */
    WIDGET_REQUEST_CONTROL = 9
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

    /* --- ABI 1.5 --- (read only when struct_size covers it) */

    /* What `widgets list` and `load` show of the bundle, each optional (NULL): its version
     * ("1.2.0"), who makes it, its licence (an SPDX identifier, "MIT"), and a web page about it.
     * WIDGET_BUNDLE_METADATA fills them. */
    const char *version;
    const char *vendor;
    const char *license;
    const char *homepage;

    /* --- ABI 1.6 --- (read only when struct_size covers it) */

    /* Who the bundle belongs to, as an app's WidgetCenter names it: the bundle's identifier
     * ("org.example.trips.widget", an extension's CFBundleIdentifier), and the app groups it shares
     * with its app ("group.org.example.trips"), a NULL-terminated array. An app's
     * reloadAllTimelines() reloads the widgets of bundles whose identifier starts with the app's, or
     * that share a group with it. Either may be NULL. Kept for the life of the process. */
    const char *identifier;
    const char *const *app_groups;
} widget_bundle_t;

/* The ABI 1.5 metadata in a bundle's initializer, any of them NULL:
 *
 *     static const widget_bundle_t bundle = {
 *         .abi_version = WIDGET_ABI_VERSION_INIT, .struct_size = sizeof(widget_bundle_t), ...,
 *         WIDGET_BUNDLE_METADATA("1.2.0", "Example Ltd", "MIT", "https://example.org/widgets"),
 *     };
 */
#define WIDGET_BUNDLE_METADATA(version_, vendor_, license_, homepage_) \
    .version = (version_), .vendor = (vendor_), .license = (license_), .homepage = (homepage_)

/* The entry symbol. It must do nothing but return a pointer to the bundle's static
 * `widget_bundle_t`; the host calls it right after dlopen and checks `abi_version` first.
 * [thread: any] */
typedef const widget_bundle_t *(*widget_bundle_entry_fn)(void);

/* Exports a bundle's entry with C linkage and default visibility, whatever the compiler's flags:
 *
 *     WIDGET_BUNDLE_EXPORT const widget_bundle_t *widget_bundle_entry(void) { return &my_bundle; }
 */
#ifdef __cplusplus
#define WIDGET_BUNDLE_EXPORT extern "C" __attribute__((visibility("default")))
#else
#define WIDGET_BUNDLE_EXPORT __attribute__((visibility("default")))
#endif

/* The size of each growable struct as each minor version defined it: the end of its last field in
 * that version. A reader compares a writer's `struct_size` with these to know which fields it has;
 * a host sends a bundle of minor version N requests of WIDGET_REQUEST_SIZE_1_N (the latest at or
 * below N). */
#define WIDGET_DESCRIPTOR_SIZE_1_0 (offsetof(widget_descriptor_t, flags) + sizeof(uint32_t))
#define WIDGET_DESCRIPTOR_SIZE_1_2 (offsetof(widget_descriptor_t, configuration_schema) + sizeof(const char *))
#define WIDGET_HOST_SIZE_1_0 (offsetof(widget_host_t, log) + sizeof(void (*)(void)))
#define WIDGET_HOST_SIZE_1_6 (offsetof(widget_host_t, bundle_path) + sizeof(const char *))
#define WIDGET_REQUEST_SIZE_1_0 (offsetof(widget_request_t, configuration) + sizeof(const char *))
#define WIDGET_REQUEST_SIZE_1_2 (offsetof(widget_request_t, parameter) + sizeof(const char *))
#define WIDGET_REQUEST_SIZE_1_3 (offsetof(widget_request_t, intent) + sizeof(const char *))
#define WIDGET_REQUEST_SIZE_1_4 (offsetof(widget_request_t, shows_container_background) + sizeof(bool))
#define WIDGET_RESULT_SIZE_1_0 (offsetof(widget_result_t, error_message) + sizeof(const char *))
#define WIDGET_BUNDLE_SIZE_1_0 (offsetof(widget_bundle_t, shutdown) + sizeof(void (*)(void)))
#define WIDGET_BUNDLE_SIZE_1_1 (offsetof(widget_bundle_t, memory_limit) + sizeof(uint64_t))
#define WIDGET_BUNDLE_SIZE_1_3 (offsetof(widget_bundle_t, url_schemes) + sizeof(const char *const *))
#define WIDGET_BUNDLE_SIZE_1_5 (offsetof(widget_bundle_t, homepage) + sizeof(const char *))
#define WIDGET_BUNDLE_SIZE_1_6 (offsetof(widget_bundle_t, app_groups) + sizeof(const char *const *))

/* The layout, pinned: a change to a struct that bundles already rely on fails every build that
 * includes this header instead of breaking loaded bundles. Offsets are those of the LP64 platforms
 * (x86_64, aarch64) hosts run on. */
#ifdef __cplusplus
#define WIDGET_ABI_ASSERT(condition, message) static_assert(condition, message)
#else
#define WIDGET_ABI_ASSERT(condition, message) _Static_assert(condition, message)
#endif
#if defined(__LP64__)
/* widget_abi_version_t */
WIDGET_ABI_ASSERT(offsetof(widget_abi_version_t, major) == 0 && offsetof(widget_abi_version_t, minor) == 4, "widget_abi_version_t");
WIDGET_ABI_ASSERT(sizeof(widget_abi_version_t) == 8, "widget_abi_version_t is two uint32_t");
/* widget_descriptor_t: 1.0 */
WIDGET_ABI_ASSERT(offsetof(widget_descriptor_t, struct_size) == 0, "descriptor.struct_size");
WIDGET_ABI_ASSERT(offsetof(widget_descriptor_t, kind) == 8, "descriptor.kind");
WIDGET_ABI_ASSERT(offsetof(widget_descriptor_t, display_name) == 16, "descriptor.display_name");
WIDGET_ABI_ASSERT(offsetof(widget_descriptor_t, description) == 24, "descriptor.description");
WIDGET_ABI_ASSERT(offsetof(widget_descriptor_t, families) == 32, "descriptor.families");
WIDGET_ABI_ASSERT(offsetof(widget_descriptor_t, configuration_kind) == 36, "descriptor.configuration_kind");
WIDGET_ABI_ASSERT(offsetof(widget_descriptor_t, configuration_name) == 40, "descriptor.configuration_name");
WIDGET_ABI_ASSERT(offsetof(widget_descriptor_t, flags) == 48, "descriptor.flags");
WIDGET_ABI_ASSERT(WIDGET_DESCRIPTOR_SIZE_1_0 == 52, "widget_descriptor_t of ABI 1.0");
/* widget_descriptor_t: 1.2 */
WIDGET_ABI_ASSERT(offsetof(widget_descriptor_t, configuration_schema) == 56, "descriptor.configuration_schema");
WIDGET_ABI_ASSERT(WIDGET_DESCRIPTOR_SIZE_1_2 == 64 && sizeof(widget_descriptor_t) == 64, "widget_descriptor_t of ABI 1.2");
/* widget_host_t: 1.0 */
WIDGET_ABI_ASSERT(offsetof(widget_host_t, abi_version) == 0, "host.abi_version");
WIDGET_ABI_ASSERT(offsetof(widget_host_t, struct_size) == 8, "host.struct_size");
WIDGET_ABI_ASSERT(offsetof(widget_host_t, host_data) == 16, "host.host_data");
WIDGET_ABI_ASSERT(offsetof(widget_host_t, register_widget) == 24, "host.register_widget");
WIDGET_ABI_ASSERT(offsetof(widget_host_t, log) == 32, "host.log");
WIDGET_ABI_ASSERT(WIDGET_HOST_SIZE_1_0 == 40, "widget_host_t of ABI 1.0");
/* widget_host_t: 1.6 */
WIDGET_ABI_ASSERT(offsetof(widget_host_t, bundle_path) == 40, "host.bundle_path");
WIDGET_ABI_ASSERT(WIDGET_HOST_SIZE_1_6 == 48 && sizeof(widget_host_t) == 48, "widget_host_t of ABI 1.6");
/* widget_request_t: 1.0 */
WIDGET_ABI_ASSERT(offsetof(widget_request_t, struct_size) == 0, "request.struct_size");
WIDGET_ABI_ASSERT(offsetof(widget_request_t, request_kind) == 4, "request.request_kind");
WIDGET_ABI_ASSERT(offsetof(widget_request_t, widget_kind) == 8, "request.widget_kind");
WIDGET_ABI_ASSERT(offsetof(widget_request_t, family) == 16, "request.family");
WIDGET_ABI_ASSERT(offsetof(widget_request_t, is_preview) == 20, "request.is_preview");
WIDGET_ABI_ASSERT(offsetof(widget_request_t, display_width) == 24, "request.display_width");
WIDGET_ABI_ASSERT(offsetof(widget_request_t, display_height) == 32, "request.display_height");
WIDGET_ABI_ASSERT(offsetof(widget_request_t, configuration) == 40, "request.configuration");
WIDGET_ABI_ASSERT(WIDGET_REQUEST_SIZE_1_0 == 48, "widget_request_t of ABI 1.0");
/* widget_request_t: 1.2, 1.3, 1.4 */
WIDGET_ABI_ASSERT(offsetof(widget_request_t, parameter) == 48, "request.parameter");
WIDGET_ABI_ASSERT(WIDGET_REQUEST_SIZE_1_2 == 56, "widget_request_t of ABI 1.2");
WIDGET_ABI_ASSERT(offsetof(widget_request_t, url) == 56, "request.url");
WIDGET_ABI_ASSERT(offsetof(widget_request_t, intent) == 64, "request.intent");
WIDGET_ABI_ASSERT(WIDGET_REQUEST_SIZE_1_3 == 72, "widget_request_t of ABI 1.3");
WIDGET_ABI_ASSERT(offsetof(widget_request_t, color_scheme) == 72, "request.color_scheme");
WIDGET_ABI_ASSERT(offsetof(widget_request_t, rendering_mode) == 76, "request.rendering_mode");
WIDGET_ABI_ASSERT(offsetof(widget_request_t, shows_container_background) == 80, "request.shows_container_background");
WIDGET_ABI_ASSERT(WIDGET_REQUEST_SIZE_1_4 == 81 && sizeof(widget_request_t) == 88, "widget_request_t of ABI 1.4");
/* widget_result_t: 1.0 */
WIDGET_ABI_ASSERT(offsetof(widget_result_t, struct_size) == 0, "result.struct_size");
WIDGET_ABI_ASSERT(offsetof(widget_result_t, status) == 4, "result.status");
WIDGET_ABI_ASSERT(offsetof(widget_result_t, data) == 8, "result.data");
WIDGET_ABI_ASSERT(offsetof(widget_result_t, length) == 16, "result.length");
WIDGET_ABI_ASSERT(offsetof(widget_result_t, error_message) == 24, "result.error_message");
WIDGET_ABI_ASSERT(WIDGET_RESULT_SIZE_1_0 == 32 && sizeof(widget_result_t) == 32, "widget_result_t of ABI 1.0");
/* widget_bundle_t: 1.0 */
WIDGET_ABI_ASSERT(offsetof(widget_bundle_t, abi_version) == 0, "bundle.abi_version must stay first");
WIDGET_ABI_ASSERT(offsetof(widget_bundle_t, struct_size) == 8, "bundle.struct_size follows abi_version");
WIDGET_ABI_ASSERT(offsetof(widget_bundle_t, name) == 16, "bundle.name");
WIDGET_ABI_ASSERT(offsetof(widget_bundle_t, built_with) == 24, "bundle.built_with");
WIDGET_ABI_ASSERT(offsetof(widget_bundle_t, initialize) == 32, "bundle.initialize");
WIDGET_ABI_ASSERT(offsetof(widget_bundle_t, request) == 40, "bundle.request");
WIDGET_ABI_ASSERT(offsetof(widget_bundle_t, shutdown) == 48, "bundle.shutdown");
WIDGET_ABI_ASSERT(WIDGET_BUNDLE_SIZE_1_0 == 56, "widget_bundle_t of ABI 1.0");
/* widget_bundle_t: 1.1, 1.3 */
WIDGET_ABI_ASSERT(offsetof(widget_bundle_t, memory_limit) == 56, "bundle.memory_limit");
WIDGET_ABI_ASSERT(WIDGET_BUNDLE_SIZE_1_1 == 64, "widget_bundle_t of ABI 1.1");
WIDGET_ABI_ASSERT(offsetof(widget_bundle_t, url_schemes) == 64, "bundle.url_schemes");
WIDGET_ABI_ASSERT(WIDGET_BUNDLE_SIZE_1_3 == 72, "widget_bundle_t of ABI 1.3");
/* widget_bundle_t: 1.5 */
WIDGET_ABI_ASSERT(offsetof(widget_bundle_t, version) == 72, "bundle.version");
WIDGET_ABI_ASSERT(offsetof(widget_bundle_t, vendor) == 80, "bundle.vendor");
WIDGET_ABI_ASSERT(offsetof(widget_bundle_t, license) == 88, "bundle.license");
WIDGET_ABI_ASSERT(offsetof(widget_bundle_t, homepage) == 96, "bundle.homepage");
WIDGET_ABI_ASSERT(WIDGET_BUNDLE_SIZE_1_5 == 104, "widget_bundle_t of ABI 1.5");
/* widget_bundle_t: 1.6 */
WIDGET_ABI_ASSERT(offsetof(widget_bundle_t, identifier) == 104, "bundle.identifier");
WIDGET_ABI_ASSERT(offsetof(widget_bundle_t, app_groups) == 112, "bundle.app_groups");
WIDGET_ABI_ASSERT(WIDGET_BUNDLE_SIZE_1_6 == 120 && sizeof(widget_bundle_t) == 120, "widget_bundle_t of ABI 1.6");
#endif

#ifdef __cplusplus
}
#endif

#endif /* WIDGET_ABI_H */
