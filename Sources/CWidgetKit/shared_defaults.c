/*
 * `UserDefaults(suiteName: "group.…")` shared between processes, as iOS shares an App Group's
 * defaults between an app and its widgets.
 *
 * The toolchain's Foundation keeps each suite in memory and writes it to
 * `$XDG_CONFIG_HOME/<suite>.plist` only when told to (`synchronize()`), and never reads it again
 * once loaded. Its `CFPreferencesFlushCaches` writes every suite's changes (merged with what other
 * processes wrote meanwhile) and forgets them, so the next read sees the file as it is. The SDK
 * calls it around each provider call and intent, before a WidgetCenter reload, and at exit.
 *
 * It is looked up at run time: a Foundation without it makes `widgetkit_defaults_shared` false, and
 * the SDK says so once, pointing at `SharedDefaults`.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>

#include "widgetkit_support.h"

static void (*flush_caches)(void);
static bool looked_up;

static void look_up(void) {
    if (__atomic_load_n(&looked_up, __ATOMIC_ACQUIRE)) return;
    void *symbol = dlsym(RTLD_DEFAULT, "CFPreferencesFlushCaches");
    __atomic_store_n(&flush_caches, (void (*)(void))symbol, __ATOMIC_RELAXED);
    __atomic_store_n(&looked_up, true, __ATOMIC_RELEASE);
}

bool widgetkit_defaults_shared(void) {
    look_up();
    return flush_caches != NULL;
}

void widgetkit_synchronize_defaults(void) {
    look_up();
    void (*flush)(void) = __atomic_load_n(&flush_caches, __ATOMIC_RELAXED);
    if (flush) flush();
}

/* A process that links the SDK (an app, a host in queue mode) writes its suites when it exits, as
 * an iOS app's defaults are written when it goes away. */
__attribute__((constructor)) static void synchronize_at_exit(void) {
    atexit(widgetkit_synchronize_defaults);
}
