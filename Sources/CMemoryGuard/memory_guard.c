/*
 * The malloc family, replaced: each block gets a 16-byte header in front of what the caller sees,
 *
 *     [ uint32 slot | uint32 offset to the libc block ][ uint64 size ][ reserved ][ uint64 tag ] user bytes
 *
 * where the tag is MAGIC ^ the user address. The tag is the last 8 bytes before the user bytes: for a
 * block glibc allocated, those are glibc's own chunk header, so checking a foreign pointer reads only
 * memory that is mapped.
 * and forwards to glibc's __libc_* functions. glibc documents replacing malloc this way (all of
 * malloc, free, calloc, realloc, aligned_alloc, malloc_usable_size, memalign, posix_memalign,
 * pvalloc, valloc). A pointer whose header does not carry the tag was not allocated here, and is
 * handed to libc untouched.
 */
#define _GNU_SOURCE
#include "memory_guard.h"

#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

struct header {
    uint32_t slot;
    uint32_t offset; /* from the libc block to the user bytes */
    uint64_t size;   /* bytes the caller asked for */
    uint64_t reserved;
    uint64_t tag;    /* MAGIC ^ user address: last, right before the user bytes */
};
_Static_assert(sizeof(struct header) == 32, "header keeps user bytes 16-aligned");

#define MAGIC 0x5769646765744d47ull /* "WidgetMG" */

static inline struct header *ours(void *user);

static _Atomic int64_t live[MEMORY_GUARD_SLOTS];
static _Atomic int64_t peak[MEMORY_GUARD_SLOTS];
static int64_t limits[MEMORY_GUARD_SLOTS];
static _Atomic bool exceeded[MEMORY_GUARD_SLOTS];
static __thread uint32_t current_slot;

bool memory_guard_active(void) {
    /* If this file's malloc is the process's, a block from malloc carries our tag. */
    void *probe = malloc(1);
    bool active = ours(probe) != NULL;
    free(probe);
    return active;
}

void memory_guard_open_slot(uint32_t slot, int64_t limit) {
    if (slot == 0 || slot >= MEMORY_GUARD_SLOTS) return;
    atomic_store(&live[slot], 0);
    atomic_store(&peak[slot], 0);
    atomic_store(&exceeded[slot], false);
    limits[slot] = limit;
}

uint32_t memory_guard_enter(uint32_t slot) {
    uint32_t previous = current_slot;
    current_slot = slot < MEMORY_GUARD_SLOTS ? slot : 0;
    return previous;
}

void memory_guard_exit(uint32_t previous) { current_slot = previous; }

int64_t memory_guard_live(uint32_t slot) { return slot < MEMORY_GUARD_SLOTS ? atomic_load(&live[slot]) : 0; }
int64_t memory_guard_peak(uint32_t slot) { return slot < MEMORY_GUARD_SLOTS ? atomic_load(&peak[slot]) : 0; }
bool memory_guard_exceeded(uint32_t slot) { return slot < MEMORY_GUARD_SLOTS && atomic_load(&exceeded[slot]); }

static inline void charge(uint32_t slot, int64_t bytes) {
    int64_t now = atomic_fetch_add_explicit(&live[slot], bytes, memory_order_relaxed) + bytes;
    int64_t high = atomic_load_explicit(&peak[slot], memory_order_relaxed);
    while (now > high && !atomic_compare_exchange_weak_explicit(&peak[slot], &high, now, memory_order_relaxed,
                                                                memory_order_relaxed)) {
    }
    if (limits[slot] > 0 && now > limits[slot]) atomic_store_explicit(&exceeded[slot], true, memory_order_relaxed);
}

/* Lays a header in front of `user` and charges the current slot. */
static inline void *finish(void *block, void *user, size_t size) {
    struct header *header = (struct header *)user - 1;
    uint32_t slot = current_slot;
    header->slot = slot;
    header->offset = (uint32_t)((char *)user - (char *)block);
    header->size = size;
    header->tag = MAGIC ^ (uint64_t)(uintptr_t)user;
    if (slot != 0) charge(slot, (int64_t)size);
    return user;
}

static inline struct header *ours(void *user) {
    uint64_t tag = ((uint64_t *)user)[-1];
    return tag == (MAGIC ^ (uint64_t)(uintptr_t)user) ? (struct header *)user - 1 : NULL;
}

void *malloc(size_t size) {
    if (size > SIZE_MAX - sizeof(struct header)) {
        errno = ENOMEM;
        return NULL;
    }
    void *block = __libc_malloc(size + sizeof(struct header));
    if (!block) return NULL;
    return finish(block, (struct header *)block + 1, size);
}

void free(void *user) {
    if (!user) return;
    struct header *header = ours(user);
    if (!header) {
        __libc_free(user);
        return;
    }
    if (header->slot != 0) atomic_fetch_sub_explicit(&live[header->slot], (int64_t)header->size, memory_order_relaxed);
    void *block = (char *)user - header->offset;
    header->tag = 0; /* a second free of the same block is then not mistaken for ours */
    __libc_free(block);
}

void *calloc(size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size) {
        errno = ENOMEM;
        return NULL;
    }
    void *user = malloc(count * size);
    if (user) memset(user, 0, count * size);
    return user;
}

size_t malloc_usable_size(void *user) {
    if (!user) return 0;
    struct header *header = ours(user);
    return header ? header->size : 0;
}

void *realloc(void *user, size_t size) {
    if (!user) return malloc(size);
    if (size == 0) {
        free(user);
        return NULL;
    }
    struct header *header = ours(user);
    if (!header) {
        /* Not ours: we cannot know its size, so we cannot move it; let libc resize it. */
        extern void *__libc_realloc(void *, size_t);
        return __libc_realloc(user, size);
    }
    void *moved = malloc(size);
    if (!moved) return NULL;
    memcpy(moved, user, header->size < size ? header->size : size);
    free(user);
    return moved;
}

static void *aligned(size_t alignment, size_t size) {
    if (alignment <= 16) return malloc(size);
    if (size > SIZE_MAX - alignment) {
        errno = ENOMEM;
        return NULL;
    }
    /* The user bytes sit `alignment` past an aligned block, leaving room for the header. */
    void *block = __libc_memalign(alignment, size + alignment);
    if (!block) return NULL;
    return finish(block, (char *)block + alignment, size);
}

static bool power_of_two(size_t value) { return value && !(value & (value - 1)); }

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (!power_of_two(alignment) || alignment % sizeof(void *) != 0) return EINVAL;
    void *user = aligned(alignment, size);
    if (!user) return ENOMEM;
    *result = user;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    if (!power_of_two(alignment)) {
        errno = EINVAL;
        return NULL;
    }
    return aligned(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
    if (!power_of_two(alignment)) {
        errno = EINVAL;
        return NULL;
    }
    return aligned(alignment, size);
}

void *valloc(size_t size) { return aligned((size_t)sysconf(_SC_PAGESIZE), size); }

void *pvalloc(size_t size) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    return aligned(page, (size + page - 1) / page * page);
}

void memory_guard_libc_pair(uint64_t size) {
    void *block = __libc_malloc((size_t)size);
    __asm__ volatile("" : : "r"(block) : "memory");
    __libc_free(block);
}

void memory_guard_guarded_pair(uint64_t size) {
    void *block = malloc((size_t)size);
    __asm__ volatile("" : : "r"(block) : "memory");
    free(block);
}
