/*
 * The host's memory guard: it replaces the malloc family for the whole host process and charges
 * every allocation made while a provider's code runs on its queue to that provider.
 *
 * Each provider run gets a slot (1...MEMORY_GUARD_SLOTS-1; 0 is the host itself). A thread enters a
 * slot around each call into a provider; allocations made meanwhile are charged to the slot until
 * they are freed, on whatever thread. Allocations a provider makes on other threads (a Task, a
 * queue of its own) are not charged: in-process accounting detects and quarantines; a hard limit
 * needs a worker process.
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
#define MEMORY_GUARD_EXCEEDED_MAGIC 0x4d454d58u /* "MEMX" */
struct memory_guard_exceeded {
    uint32_t magic;
    uint32_t slot;
    int64_t bytes; /* what the slot would hold with the allocation */
    int64_t limit;
};
void memory_guard_exit_on_exceed(int fd);

/* For the benchmark: one malloc and free straight through libc, bypassing the guard, and the same
 * pair through the guard (charged to the thread's current slot). */
void memory_guard_libc_pair(uint64_t size);
void memory_guard_guarded_pair(uint64_t size);

#endif
