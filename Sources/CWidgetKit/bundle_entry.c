/*
 * The bundle entry for a bundle written as on iOS, with `@main struct MyWidgets: WidgetBundle`.
 *
 * `@main` in a library makes the compiler emit a `main` symbol that calls the type's static
 * `main()`; the SDK's `WidgetBundle.main()` exports the bundle. This weak `widget_bundle_entry` finds
 * this bundle's own `main` (never the host's: it is looked up on this image's handle and checked to
 * lie in this image), calls it, and returns what it exported. A bundle that writes the export line
 * defines a strong `widget_bundle_entry`, which the linker takes instead.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

#include "widget_abi.h"
#include "widgetkit_support.h"

/* In the SDK (Swift): the bundle `WidgetBundle.main()` exported, if it was. */
extern const widget_bundle_t *widgetkit_exported_bundle(void);

static const widget_bundle_t *entry_from_main(void) {
    Dl_info self;
    if (!dladdr((void *)&entry_from_main, &self) || !self.dli_fname) return NULL;
    /* The image is loaded: this finds it by the name it was loaded under, and opens nothing. */
    void *handle = dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD);
    if (!handle) return NULL;
    const widget_bundle_t *bundle = NULL;
    void *symbol = dlsym(handle, "main");
    Dl_info found;
    if (symbol && dladdr(symbol, &found) && found.dli_fbase == self.dli_fbase) {
        ((int (*)(int, char **))symbol)(0, NULL);
        bundle = widgetkit_exported_bundle();
    }
    dlclose(handle);
    return bundle;
}

WIDGET_BUNDLE_EXPORT __attribute__((weak)) const widget_bundle_t *widget_bundle_entry(void) {
    return entry_from_main();
}

/* The preview registrations: `@section("widgetkit_previews")` pointers to C functions. The linker
 * defines the section's bounds for this image alone (hidden). A null entry of the SDK's own makes
 * sure the section, and so its bounds, exist in every bundle. */
typedef void (*widgetkit_preview_fn)(void);
__attribute__((section("widgetkit_previews"), used)) static widgetkit_preview_fn no_preview = NULL;
extern const widgetkit_preview_fn __start_widgetkit_previews[] __attribute__((visibility("hidden")));
extern const widgetkit_preview_fn __stop_widgetkit_previews[] __attribute__((visibility("hidden")));

int widgetkit_register_previews(void) {
    int count = 0;
    for (const widgetkit_preview_fn *entry = __start_widgetkit_previews; entry < __stop_widgetkit_previews; entry++) {
        if (*entry) {
            (*entry)();
            count++;
        }
    }
    return count;
}
