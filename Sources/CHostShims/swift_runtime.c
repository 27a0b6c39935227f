/*
 * Whether this process has the shared Swift runtime: read from the dynamic loader's list of loaded
 * objects. Asking dlopen("libswiftCore.so", RTLD_NOLOAD) for it searched the library path for the
 * file first, some 40 failed opens at every start of the statically linked `widgets`.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdbool.h>
#include <string.h>

#include "host_shims.h"

static int is_swift_core(struct dl_phdr_info *object, size_t size, void *found) {
    (void)size;
    const char *name = object->dlpi_name;
    if (!name || !*name) return 0;
    const char *slash = strrchr(name, '/');
    if (strcmp(slash ? slash + 1 : name, "libswiftCore.so") != 0) return 0;
    *(bool *)found = true;
    return 1;
}

bool host_has_shared_swift_runtime(void) {
    bool found = false;
    dl_iterate_phdr(is_swift_core, &found);
    return found;
}
