/*
 * The host's memory guard: it replaces the malloc family for the whole host process and charges
 * every allocation made while a provider's code runs on its queue to that provider.
 *
 * Each provider run gets a slot (1...MEMORY_GUARD_SLOTS-1; 0 is the host itself). A thread enters a
 * slot around each call into a provider; allocations made meanwhile are charged to the slot until
 * they are freed, on whatever thread. A thread created while a slot is current (pthread_create is
 * replaced too) charges that slot from its start: a provider's own threads are its own. Anonymous
 * private memory a provider maps with mmap is charged as its allocations are. In-process accounting
 * detects and quarantines; a hard limit needs a worker process, where the guard also bounds the
 * worker as a whole: all its memory, and how many threads it runs.
 */
#ifndef MEMORY_GUARD_H
#define MEMORY_GUARD_H

#include <malloc.h> /* the replaced family: malloc_usable_size, memalign, pvalloc... */
#include <stdbool.h>
#include <stdint.h>

#define MEMORY_GUARD_SLOTS 4096

/* Whether this process's allocations go through the guard (false when the C target was not linked
 * into the executable, so that libc's malloc is the one in use). */
bool memory_guard_active(void);

/* Starts charging a slot with a limit in bytes (0: none), resetting its counters. */
void memory_guard_open_slot(uint32_t slot, int64_t limit);

/* Charges allocations made on this thread to `slot` until memory_guard_exit. Returns the slot
 * that was current, to restore. */
uint32_t memory_guard_enter(uint32_t slot);
void memory_guard_exit(uint32_t previous);

/* Bytes the slot's allocations hold now, and the most they held at once since it was opened. */
int64_t memory_guard_live(uint32_t slot);
int64_t memory_guard_peak(uint32_t slot);
/* True once the slot's live bytes went over its limit. */
bool memory_guard_exceeded(uint32_t slot);

/* For worker processes, where the limit is enforced for real: from now on, an allocation that takes
 * a slot over its limit writes one `struct memory_guard_exceeded` to `fd` and ends the process with
 * _exit(MEMORY_GUARD_EXIT_STATUS), before the allocation returns. -1 turns it off. */
#define MEMORY_GUARD_EXIT_STATUS 86
#define MEMORY_GUARD_EXCEEDED_MAGIC 0x4d454d59u /* "MEMY" */
enum memory_guard_limit_kind {
    MEMORY_GUARD_SLOT_MEMORY = 0,   /* a provider's slot: `slot`, `amount` bytes */
    MEMORY_GUARD_WORKER_MEMORY = 1, /* the worker's memory, all of it: `amount` bytes */
    MEMORY_GUARD_THREADS = 2,       /* the worker's threads: `amount` of them */
    MEMORY_GUARD_OUT_OF_MEMORY = 3, /* the system refused memory (the worker's kernel limit): `amount` bytes asked */
};
struct memory_guard_exceeded {
    uint32_t magic;
    uint32_t slot;
    int64_t amount; /* what it would come to with the allocation (bytes or threads) */
    int64_t limit;
    uint32_t kind;  /* enum memory_guard_limit_kind */
    uint32_t reserved;
};
void memory_guard_exit_on_exceed(int fd);

/* For worker processes: the most memory (bytes; malloc's and anonymous mmaps, every slot's and the
 * worker's own) and the most threads the whole worker may hold; 0 for no limit. Over either, the
 * worker reports and exits as for a slot (memory_guard_exit_on_exceed). */
void memory_guard_set_worker_limits(int64_t bytes, int64_t threads);

/* In a worker forked from a thread the guard counted (the zygote's): that thread is now the
 * process's only one, its main thread, which the guard does not count in a worker spawned. */
void memory_guard_forked_child(void);

/* The worker's memory as the guard counts it, and its live threads (threads started since the
 * process began, less those that ended; the main thread is not counted). */
int64_t memory_guard_worker_bytes(void);
int64_t memory_guard_threads(void);

/* For the benchmark: one malloc and free straight through libc, bypassing the guard, and the same
 * pair through the guard (charged to the thread's current slot). */
void memory_guard_libc_pair(uint64_t size);
void memory_guard_guarded_pair(uint64_t size);

#endif
