/*
 * The malloc family, replaced: each block gets a 32-byte header in front of what the caller sees
 * (32, so the user bytes keep glibc's 16-byte alignment),
 *
 *     [ uint32 slot | uint32 offset to the libc block ][ uint64 size ][ reserved ][ uint64 tag ] user bytes
 *
 * where the tag is MAGIC ^ the user address. The tag is the last 8 bytes before the user bytes: for a
 * block glibc allocated, those are glibc's own chunk header, so checking a foreign pointer reads only
 * memory that is mapped. Every call is forwarded to glibc's __libc_* functions. glibc documents replacing malloc this way (all of
 * malloc, free, calloc, realloc, aligned_alloc, malloc_usable_size, memalign, posix_memalign,
 * pvalloc, valloc). A pointer whose header does not carry the tag was not allocated here, and is
 * handed to libc untouched.
 */
#define _GNU_SOURCE
#include "memory_guard.h"

#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void __libc_free(void *);
extern void *__libc_realloc(void *, size_t);
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

/* One cache line per slot: providers running in parallel on neighbouring slots must not contend. */
struct slot_counters {
    _Atomic int64_t live;
    _Atomic int64_t peak;
    _Atomic int64_t limit;
    _Atomic bool exceeded;
} __attribute__((aligned(64)));

static struct slot_counters slots[MEMORY_GUARD_SLOTS];
static __thread uint32_t current_slot;
/* In a worker process: where to report a slot going over its limit before the process exits. */
static _Atomic int exceed_fd = -1;
static void exceeded_exit(int fd, uint32_t kind, uint32_t slot, int64_t amount, int64_t limit) __attribute__((noreturn, cold));

/* The worker as a whole (set only in workers): its memory, counted while a limit is set, and its
 * threads, counted always. Each on its own cache line. */
static struct {
    _Atomic int64_t bytes __attribute__((aligned(64)));
    _Atomic int64_t limit;
    _Atomic bool counting;
} worker_memory;
static struct {
    _Atomic int64_t live __attribute__((aligned(64)));
    _Atomic int64_t limit;
} worker_threads;

static inline struct header *ours(void *user) {
    uint64_t tag = ((uint64_t *)user)[-1];
    return tag == (MAGIC ^ (uint64_t)(uintptr_t)user) ? (struct header *)user - 1 : NULL;
}

bool memory_guard_active(void) {
    /* strdup allocates inside libc: if its block carries our tag, libraries use this malloc too. */
    char *probe = strdup("x");
    bool active = probe && ours(probe) != NULL;
    free(probe);
    return active;
}

void memory_guard_open_slot(uint32_t slot, int64_t limit) {
    if (slot == 0 || slot >= MEMORY_GUARD_SLOTS) return;
    atomic_store(&slots[slot].live, 0);
    atomic_store(&slots[slot].peak, 0);
    atomic_store(&slots[slot].exceeded, false);
    atomic_store(&slots[slot].limit, limit);
}

void memory_guard_exit_on_exceed(int fd) { atomic_store(&exceed_fd, fd); }

void memory_guard_forked_child(void) { atomic_store(&worker_threads.live, 0); }

void memory_guard_set_worker_limits(int64_t bytes, int64_t threads) {
    atomic_store(&worker_memory.limit, bytes > 0 ? bytes : 0);
    atomic_store(&worker_memory.counting, bytes > 0);
    atomic_store(&worker_threads.limit, threads > 0 ? threads : 0);
}

int64_t memory_guard_worker_bytes(void) { return atomic_load(&worker_memory.bytes); }
int64_t memory_guard_threads(void) { return atomic_load(&worker_threads.live); }

/* Reports and ends the process from inside an allocation: only async-signal-safe calls, no memory.
 * The block being charged is never handed out. */
static void exceeded_exit(int fd, uint32_t kind, uint32_t slot, int64_t amount, int64_t limit) {
    struct memory_guard_exceeded record = {MEMORY_GUARD_EXCEEDED_MAGIC, slot, amount, limit, kind, 0};
    ssize_t written;
    do {
        written = write(fd, &record, sizeof record);
    } while (written < 0 && errno == EINTR);
    _exit(MEMORY_GUARD_EXIT_STATUS);
}

uint32_t memory_guard_enter(uint32_t slot) {
    uint32_t previous = current_slot;
    current_slot = slot < MEMORY_GUARD_SLOTS ? slot : 0;
    return previous;
}

void memory_guard_exit(uint32_t previous) { current_slot = previous; }

int64_t memory_guard_live(uint32_t slot) { return slot < MEMORY_GUARD_SLOTS ? atomic_load(&slots[slot].live) : 0; }
int64_t memory_guard_peak(uint32_t slot) { return slot < MEMORY_GUARD_SLOTS ? atomic_load(&slots[slot].peak) : 0; }
bool memory_guard_exceeded(uint32_t slot) { return slot < MEMORY_GUARD_SLOTS && atomic_load(&slots[slot].exceeded); }

/* Counts bytes toward the worker's whole memory, while it has a limit. */
static inline void charge_worker(int64_t bytes) {
    if (!atomic_load_explicit(&worker_memory.counting, memory_order_relaxed)) return;
    int64_t now = atomic_fetch_add_explicit(&worker_memory.bytes, bytes, memory_order_relaxed) + bytes;
    if (bytes <= 0) return;
    int64_t limit = atomic_load_explicit(&worker_memory.limit, memory_order_relaxed);
    if (limit > 0 && now > limit) {
        int fd = atomic_load_explicit(&exceed_fd, memory_order_relaxed);
        if (fd >= 0) exceeded_exit(fd, MEMORY_GUARD_WORKER_MEMORY, current_slot, now, limit);
    }
}

/* The system refused memory in a worker: its kernel limit (RLIMIT_DATA). Said before the caller
 * sees NULL, which Swift turns into a crash that names nothing. */
static void refused(size_t size) {
    int fd = atomic_load_explicit(&exceed_fd, memory_order_relaxed);
    if (fd >= 0) exceeded_exit(fd, MEMORY_GUARD_OUT_OF_MEMORY, current_slot, (int64_t)size, 0);
}

static inline void charge(uint32_t slot, int64_t bytes) {
    struct slot_counters *counters = &slots[slot];
    int64_t now = atomic_fetch_add_explicit(&counters->live, bytes, memory_order_relaxed) + bytes;
    if (bytes <= 0) return;
    int64_t high = atomic_load_explicit(&counters->peak, memory_order_relaxed);
    while (now > high && !atomic_compare_exchange_weak_explicit(&counters->peak, &high, now, memory_order_relaxed,
                                                                memory_order_relaxed)) {
    }
    int64_t limit = atomic_load_explicit(&counters->limit, memory_order_relaxed);
    if (limit > 0 && now > limit) {
        atomic_store_explicit(&counters->exceeded, true, memory_order_relaxed);
        int fd = atomic_load_explicit(&exceed_fd, memory_order_relaxed);
        if (fd >= 0) exceeded_exit(fd, MEMORY_GUARD_SLOT_MEMORY, slot, now, limit);
    }
}

/* Lays a header in front of `user`, owned by the current slot, and charges it. */
static inline void *finish(void *block, void *user, size_t size) {
    struct header *header = (struct header *)user - 1;
    uint32_t slot = current_slot;
    header->slot = slot;
    header->offset = (uint32_t)((char *)user - (char *)block);
    header->size = size;
    header->tag = MAGIC ^ (uint64_t)(uintptr_t)user;
    if (slot != 0) charge(slot, (int64_t)size);
    charge_worker((int64_t)size);
    return user;
}

/* malloc's work, callable from calloc without going through the `malloc` symbol (a compiler may
 * turn malloc + memset into a call to calloc, which would then call itself). */
static inline void *allocate(size_t size) {
    if (size > SIZE_MAX - sizeof(struct header)) {
        errno = ENOMEM;
        return NULL;
    }
    void *block = __libc_malloc(size + sizeof(struct header));
    if (!block) {
        refused(size);
        return NULL;
    }
    return finish(block, (struct header *)block + 1, size);
}

void *malloc(size_t size) { return allocate(size); }

void free(void *user) {
    if (!user) return;
    struct header *header = ours(user);
    if (!header) {
        /* Not ours (or freed already: the tag is cleared on free, so glibc sees a double free). */
        __libc_free(user);
        return;
    }
    if (header->slot != 0) charge(header->slot, -(int64_t)header->size);
    charge_worker(-(int64_t)header->size);
    void *block = (char *)user - header->offset;
    header->tag = 0;
    __libc_free(block);
}

void *calloc(size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size) {
        errno = ENOMEM;
        return NULL;
    }
    void *user = allocate(count * size);
    if (user) memset(user, 0, count * size);
    return user;
}

size_t malloc_usable_size(void *user) {
    if (!user) return 0;
    struct header *header = ours(user);
    return header ? header->size : 0;
}

void *realloc(void *user, size_t size) {
    if (!user) return allocate(size);
    if (size == 0) {
        free(user);
        return NULL;
    }
    struct header *header = ours(user);
    if (!header) return __libc_realloc(user, size); /* not ours: libc resizes its own block */
    if (header->offset != sizeof(struct header)) {
        /* An over-aligned block: move it into an ordinary one (realloc need only keep malloc's
         * alignment). */
        void *moved = allocate(size);
        if (!moved) return NULL;
        memcpy(moved, user, header->size < size ? header->size : size);
        free(user);
        return moved;
    }
    if (size > SIZE_MAX - sizeof(struct header)) {
        errno = ENOMEM;
        return NULL;
    }
    /* Resize in place where glibc can: the block keeps its owner, charged the difference. */
    uint32_t slot = header->slot;
    uint64_t old_size = header->size;
    header->tag = 0;
    void *block = __libc_realloc((char *)user - sizeof(struct header), size + sizeof(struct header));
    if (!block) {
        header->tag = MAGIC ^ (uint64_t)(uintptr_t)user; /* unchanged, still valid */
        refused(size);
        return NULL;
    }
    void *moved = (struct header *)block + 1;
    struct header *moved_header = (struct header *)moved - 1;
    moved_header->size = size;
    moved_header->tag = MAGIC ^ (uint64_t)(uintptr_t)moved;
    if (slot != 0) charge(slot, (int64_t)size - (int64_t)old_size);
    charge_worker((int64_t)size - (int64_t)old_size);
    return moved;
}

static void *aligned(size_t alignment, size_t size) {
    if (alignment <= 16) return allocate(size);
    /* The offset to the libc block is kept in 32 bits. */
    if (alignment > (1u << 30)) {
        errno = EINVAL;
        return NULL;
    }
    if (size > SIZE_MAX - alignment) {
        errno = ENOMEM;
        return NULL;
    }
    /* The user bytes sit `alignment` past an aligned block, leaving room for the header. */
    void *block = __libc_memalign(alignment, size + alignment);
    if (!block) {
        refused(size);
        return NULL;
    }
    return finish(block, (char *)block + alignment, size);
}

static bool power_of_two(size_t value) { return value && !(value & (value - 1)); }

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (!power_of_two(alignment) || alignment % sizeof(void *) != 0) return EINVAL;
    int saved = errno;
    void *user = aligned(alignment, size);
    if (!user) {
        int failure = errno == EINVAL ? EINVAL : ENOMEM;
        errno = saved;
        return failure;
    }
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
    if (size > SIZE_MAX - page) {
        errno = ENOMEM;
        return NULL;
    }
    return aligned(page, (size + page - 1) / page * page);
}

/* ---- Threads: a thread a provider starts is the provider's ----
 *
 * pthread_create is replaced: the new thread starts in the slot that was current where it was
 * created, and the worker's live threads are counted (the limit, in workers only, is checked as a
 * thread is created). The real pthread_create is glibc's, found once. */

typedef int (*pthread_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

struct thread_start {
    void *(*start)(void *);
    void *argument;
    uint32_t slot;
};

static void thread_ended(void *unused) {
    (void)unused;
    atomic_fetch_sub_explicit(&worker_threads.live, 1, memory_order_relaxed);
}

static void *thread_begin(void *raw) {
    struct thread_start start = *(struct thread_start *)raw;
    __libc_free(raw);
    current_slot = start.slot;
    void *result;
    /* Counted down however it ends: by returning, pthread_exit or cancellation. */
    pthread_cleanup_push(thread_ended, NULL);
    result = start.start(start.argument);
    pthread_cleanup_pop(1);
    return result;
}

int pthread_create(pthread_t *thread, const pthread_attr_t *attributes, void *(*start)(void *), void *argument) {
    static _Atomic(pthread_create_fn) real;
    pthread_create_fn create = atomic_load_explicit(&real, memory_order_acquire);
    if (!create) {
        create = (pthread_create_fn)dlsym(RTLD_NEXT, "pthread_create");
        if (!create) return EAGAIN;
        atomic_store_explicit(&real, create, memory_order_release);
    }
    int64_t live = atomic_fetch_add_explicit(&worker_threads.live, 1, memory_order_relaxed) + 1;
    int64_t limit = atomic_load_explicit(&worker_threads.limit, memory_order_relaxed);
    if (limit > 0 && live > limit) {
        int fd = atomic_load_explicit(&exceed_fd, memory_order_relaxed);
        if (fd >= 0) exceeded_exit(fd, MEMORY_GUARD_THREADS, current_slot, live, limit);
    }
    struct thread_start *begin = __libc_malloc(sizeof *begin);
    if (!begin) {
        atomic_fetch_sub_explicit(&worker_threads.live, 1, memory_order_relaxed);
        return EAGAIN;
    }
    begin->start = start;
    begin->argument = argument;
    begin->slot = current_slot;
    int status = create(thread, attributes, thread_begin, begin);
    if (status != 0) {
        __libc_free(begin);
        atomic_fetch_sub_explicit(&worker_threads.live, 1, memory_order_relaxed);
    }
    return status;
}

/* ---- Anonymous memory a bundle maps itself ----
 *
 * mmap and munmap are replaced: a private, writable, anonymous mapping is charged to the current
 * slot (and the worker) as an allocation is, until it is unmapped. Mappings are remembered in a
 * table so that an unmapping credits the slot that was charged; a table that is full stops
 * remembering (what it cannot credit stays charged). Everything else passes straight to the kernel.
 * glibc's own mappings (malloc's large blocks, thread stacks) do not come through here. */

#define MAPPINGS 4096
struct mapping {
    uintptr_t start;
    size_t length;
    uint32_t slot;
};
static struct mapping mappings[MAPPINGS];
static atomic_flag mappings_lock = ATOMIC_FLAG_INIT;

static void lock_mappings(void) {
    while (atomic_flag_test_and_set_explicit(&mappings_lock, memory_order_acquire)) {
    }
}
static void unlock_mappings(void) { atomic_flag_clear_explicit(&mappings_lock, memory_order_release); }

static size_t page_rounded(size_t length) {
    size_t page = 4096;
    return (length + page - 1) / page * page;
}

void *mmap(void *address, size_t length, int protection, int flags, int fd, off_t offset) {
    void *mapped = (void *)syscall(SYS_mmap, address, length, protection, flags, fd, offset);
    if (mapped == MAP_FAILED) return mapped;
    bool anonymous = (flags & MAP_ANONYMOUS) && (flags & MAP_PRIVATE) && (protection & PROT_WRITE);
    if (!anonymous) return mapped;
    size_t size = page_rounded(length);
    uint32_t slot = current_slot;
    lock_mappings();
    for (size_t index = 0; index < MAPPINGS; index++) {
        if (mappings[index].length == 0) {
            mappings[index] = (struct mapping){(uintptr_t)mapped, size, slot};
            break;
        }
    }
    unlock_mappings();
    if (slot != 0) charge(slot, (int64_t)size);
    charge_worker((int64_t)size);
    return mapped;
}

void *mmap64(void *address, size_t length, int protection, int flags, int fd, off_t offset)
    __attribute__((alias("mmap")));

int munmap(void *address, size_t length) {
    int status = (int)syscall(SYS_munmap, address, length);
    if (status != 0) return status;
    uintptr_t start = (uintptr_t)address, end = start + page_rounded(length);
    /* Credit what of each remembered mapping the range covers. */
    int64_t credits[8] = {0};
    uint32_t credited[8] = {0};
    int count = 0;
    int64_t total = 0;
    lock_mappings();
    for (size_t index = 0; index < MAPPINGS; index++) {
        struct mapping *mapping = &mappings[index];
        if (mapping->length == 0) continue;
        uintptr_t mapped_end = mapping->start + mapping->length;
        if (mapped_end <= start || mapping->start >= end) continue;
        uintptr_t from = mapping->start > start ? mapping->start : start;
        uintptr_t to = mapped_end < end ? mapped_end : end;
        int64_t covered = (int64_t)(to - from);
        total += covered;
        if (mapping->slot != 0 && count < 8) {
            credits[count] = covered;
            credited[count] = mapping->slot;
            count++;
        }
        if (from == mapping->start && to == mapped_end) {
            mapping->length = 0;
        } else if (from == mapping->start) {
            mapping->start = to;
            mapping->length = mapped_end - to;
        } else {
            /* The end or the middle: what is left after it is forgotten (it stays charged). */
            mapping->length = from - mapping->start;
        }
    }
    unlock_mappings();
    for (int index = 0; index < count; index++) charge(credited[index], -credits[index]);
    if (total) charge_worker(-total);
    return 0;
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
