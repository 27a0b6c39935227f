/*
 * What an idle worker gives back (its host's `idle` message, WorkerReaders.swift): the pages of its
 * loaded objects' read-only segments. Each is a file's content mapped privately and never written (code, constants, the
 * Swift runtime's metadata records, ICU's data), so dropping a page from this process's page tables
 * loses nothing: the next touch maps it again from the page cache, where it stays while any other
 * process maps it, or until the kernel needs the memory. Writable segments (data, relocations,
 * RELRO, which the dynamic loader wrote before making it read-only) are left alone, as is an object
 * whose text the loader relocated (DT_TEXTREL), and the kernel's vDSO. (Code a bundle made writable
 * itself and wrote, which no linker or runtime does, would go back to the file's.)
 *
 * As Android's activity manager compacts a cached app's file pages, and for the same reason: an
 * idle process's mapped pages are the last the kernel reclaims, and it cannot tell they are idle.
 */
#define _GNU_SOURCE
#include <link.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "host_shims.h"

struct released {
    uintptr_t page;
    unsigned long bytes;
};

static uintptr_t page_down(uintptr_t address, uintptr_t page) { return address & ~(page - 1); }
static uintptr_t page_up(uintptr_t address, uintptr_t page) { return (address + page - 1) & ~(page - 1); }

/* Whether the object's dynamic section says its text has relocations. */
static int has_text_relocations(const struct dl_phdr_info *info) {
    for (ElfW(Half) index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type != PT_DYNAMIC) continue;
        for (const ElfW(Dyn) *entry = (const ElfW(Dyn) *)(info->dlpi_addr + header->p_vaddr); entry->d_tag != DT_NULL; entry++) {
            if (entry->d_tag == DT_TEXTREL) return 1;
            if (entry->d_tag == DT_FLAGS && (entry->d_un.d_val & DF_TEXTREL)) return 1;
        }
    }
    return 0;
}

/* Cuts [*start, *end) short of the pages the object's written segments lie on. Returns 0 when
 * nothing is left (or a written segment lies within, which no linker makes). */
static int outside_written(const struct dl_phdr_info *info, uintptr_t *start, uintptr_t *end, uintptr_t page) {
    for (ElfW(Half) index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        int written = (header->p_type == PT_LOAD && (header->p_flags & PF_W)) || header->p_type == PT_GNU_RELRO;
        if (!written || header->p_memsz == 0) continue;
        uintptr_t from = page_down(info->dlpi_addr + header->p_vaddr, page);
        uintptr_t to = page_up(info->dlpi_addr + header->p_vaddr + header->p_memsz, page);
        if (to <= *start || *end <= from) continue;
        if (from <= *start) *start = to;
        else if (*end <= to) *end = from;
        else return 0;
        if (*end <= *start) return 0;
    }
    return 1;
}

static int release_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct released *released = data;
    if (info->dlpi_name && strstr(info->dlpi_name, "linux-vdso")) return 0;
    if (has_text_relocations(info)) return 0;
    /* The ranges first, then the release: the program headers lie in the object's first page,
     * which a release would drop before the next header is read, and that read map it again. */
    enum { most = 64 };
    uintptr_t starts[most], ends[most];
    int count = 0;
    for (ElfW(Half) index = 0; index < info->dlpi_phnum && count < most; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type != PT_LOAD || (header->p_flags & PF_W) || header->p_filesz == 0) continue;
        /* The pages the dynamic loader mapped for the segment's part of the file, but any a written
         * segment lies on. */
        uintptr_t start = page_down(info->dlpi_addr + header->p_vaddr, released->page);
        uintptr_t end = page_up(info->dlpi_addr + header->p_vaddr + header->p_filesz, released->page);
        if (!outside_written(info, &start, &end, released->page)) continue;
        starts[count] = start;
        ends[count] = end;
        count++;
    }
    for (int index = 0; index < count; index++) {
        if (madvise((void *)starts[index], ends[index] - starts[index], MADV_DONTNEED) == 0) released->bytes += ends[index] - starts[index];
    }
    return 0;
}

unsigned long host_release_file_pages(void) {
    struct released released = {.page = (uintptr_t)sysconf(_SC_PAGESIZE), .bytes = 0};
    /* The walk holds the dynamic loader's lock: no object is loaded or made read-only meanwhile. */
    dl_iterate_phdr(release_object, &released);
    return released.bytes;
}
