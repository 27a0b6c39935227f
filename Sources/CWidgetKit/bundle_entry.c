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

/* The preview registrations: functions `#Preview` exports as `widgetkit_preview_<file>_<line>_<column>`.
 * They are found among this image's dynamic symbols (never another image's: the walk is over the
 * image this code is in), and called in the order of their names: by file, then line. */
#include <link.h>
#include <stdlib.h>
#include <string.h>

#define PREVIEW_PREFIX "widgetkit_preview_"

typedef void (*widgetkit_preview_fn)(void);

struct preview {
    const char *name;
    widgetkit_preview_fn function;
};

struct walk {
    const void *inside; /* an address in this image */
    struct preview *found;
    size_t count, capacity;
};

/* A dynamic-section address: glibc relocates them in place; other loaders may not. */
static uintptr_t dynamic_address(uintptr_t value, uintptr_t base) { return value < base ? value + base : value; }

/* How many symbols .dynsym has: DT_HASH says; with only DT_GNU_HASH, one past the last in any chain. */
static size_t symbol_count(const ElfW(Word) *hash, const ElfW(Word) *gnu_hash) {
    if (hash) return hash[1];
    if (!gnu_hash) return 0;
    ElfW(Word) buckets = gnu_hash[0], offset = gnu_hash[1], bloom = gnu_hash[2];
    const ElfW(Word) *bucket = (const ElfW(Word) *)((const ElfW(Addr) *)(gnu_hash + 4) + bloom);
    const ElfW(Word) *chain = bucket + buckets;
    ElfW(Word) last = 0;
    for (ElfW(Word) index = 0; index < buckets; index++) {
        if (bucket[index] > last) last = bucket[index];
    }
    if (last < offset) return offset;
    while (!(chain[last - offset] & 1)) last++;
    return (size_t)last + 1;
}

static int visit(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct walk *walk = data;
    const ElfW(Dyn) *dynamic = NULL;
    int mine = 0;
    for (ElfW(Half) index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        uintptr_t start = info->dlpi_addr + header->p_vaddr;
        if (header->p_type == PT_LOAD && (uintptr_t)walk->inside >= start && (uintptr_t)walk->inside < start + header->p_memsz) mine = 1;
        if (header->p_type == PT_DYNAMIC) dynamic = (const ElfW(Dyn) *)(info->dlpi_addr + header->p_vaddr);
    }
    if (!mine) return 0;
    if (!dynamic) return 1;
    const ElfW(Sym) *symbols = NULL;
    const char *strings = NULL;
    const ElfW(Word) *hash = NULL, *gnu_hash = NULL;
    for (const ElfW(Dyn) *entry = dynamic; entry->d_tag != DT_NULL; entry++) {
        uintptr_t address = dynamic_address(entry->d_un.d_ptr, info->dlpi_addr);
        switch (entry->d_tag) {
        case DT_SYMTAB: symbols = (const ElfW(Sym) *)address; break;
        case DT_STRTAB: strings = (const char *)address; break;
        case DT_HASH: hash = (const ElfW(Word) *)address; break;
        case DT_GNU_HASH: gnu_hash = (const ElfW(Word) *)address; break;
        }
    }
    if (!symbols || !strings) return 1;
    size_t count = symbol_count(hash, gnu_hash);
    for (size_t index = 0; index < count; index++) {
        const ElfW(Sym) *symbol = &symbols[index];
        if (ELF64_ST_TYPE(symbol->st_info) != STT_FUNC || symbol->st_shndx == SHN_UNDEF) continue;
        const char *name = strings + symbol->st_name;
        if (strncmp(name, PREVIEW_PREFIX, sizeof PREVIEW_PREFIX - 1) != 0) continue;
        if (walk->count == walk->capacity) {
            size_t capacity = walk->capacity ? walk->capacity * 2 : 16;
            struct preview *grown = realloc(walk->found, capacity * sizeof *grown);
            if (!grown) return 1;
            walk->found = grown;
            walk->capacity = capacity;
        }
        walk->found[walk->count].name = name;
        walk->found[walk->count].function = (widgetkit_preview_fn)(info->dlpi_addr + symbol->st_value);
        walk->count++;
    }
    return 1;
}

static int by_name(const void *left, const void *right) {
    return strcmp(((const struct preview *)left)->name, ((const struct preview *)right)->name);
}

int widgetkit_register_previews(void) {
    struct walk walk = {.inside = (const void *)&widgetkit_register_previews};
    dl_iterate_phdr(visit, &walk);
    if (walk.count > 1) qsort(walk.found, walk.count, sizeof *walk.found, by_name);
    for (size_t index = 0; index < walk.count; index++) walk.found[index].function();
    free(walk.found);
    return (int)walk.count;
}

/* The bundle's own file: the dynamic loader names it by the path it was opened with, which for a
 * host that loads from a descriptor is /proc/self/fd/N, a link to the file. */
char *widgetkit_image_path(void) {
    Dl_info self;
    if (!dladdr((void *)&widgetkit_image_path, &self) || !self.dli_fname) return NULL;
    return realpath(self.dli_fname, NULL);
}

/* The types of this bundle that conform to the SDK's `PreviewProvider` (the iOS 13 previews), found
 * among the protocol conformance records the Swift compiler puts in this image's
 * swift5_protocol_conformances section (the linker brackets it with __start_/__stop_ symbols). Each
 * record is a 32-bit relative pointer to a conformance descriptor: a relative (maybe indirect)
 * pointer to the protocol's descriptor, a relative pointer to the type's context descriptor (direct
 * or indirect, by the flags' type reference kind), the witness table pattern, and the flags. A
 * non-generic type's context descriptor holds a relative pointer to its metadata accessor, which
 * returns its metadata. Generic types are passed over. */
extern const char preview_provider_descriptor __asm__("$s9WidgetKit15PreviewProviderMp");
extern const int32_t __start_swift5_protocol_conformances[] __attribute__((weak));
extern const int32_t __stop_swift5_protocol_conformances[] __attribute__((weak));

static const void *relative(const int32_t *field) { return (const char *)field + *field; }

/* A relative pointer whose low bit says it points at a pointer to the target. */
static const void *relative_indirectable(const int32_t *field) {
    int32_t offset = *field;
    const char *target = (const char *)field + (offset & ~1);
    return (offset & 1) ? *(const void *const *)target : target;
}

typedef struct { const void *metadata; intptr_t state; } metadata_response;

int widgetkit_find_preview_providers(const void **types, int capacity) {
    const int32_t *record = __start_swift5_protocol_conformances;
    const int32_t *end = __stop_swift5_protocol_conformances;
    int found = 0;
    if (!record || !end) return 0;
    for (; record < end && found < capacity; record++) {
        const int32_t *descriptor = relative(record);
        if (relative_indirectable(&descriptor[0]) != (const void *)&preview_provider_descriptor) continue;
        uint32_t flags = (uint32_t)descriptor[3];
        uint32_t kind = (flags >> 3) & 7;
        const int32_t *type;
        if (kind == 0) type = relative(&descriptor[1]);
        else if (kind == 1) type = *(const int32_t *const *)relative(&descriptor[1]);
        else continue;
        if (!type) continue;
        uint32_t type_flags = (uint32_t)type[0];
        if (type_flags & 0x80) continue; /* generic: no single metadata */
        if (type[3] == 0) continue;
        metadata_response (*accessor)(intptr_t) = (metadata_response (*)(intptr_t))relative(&type[3]);
        types[found++] = accessor(0).metadata;
    }
    return found;
}
