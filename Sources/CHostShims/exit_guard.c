#define _GNU_SOURCE
#include "host_shims.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static atomic_int deliberate;
static pthread_mutex_t socket_lock = PTHREAD_MUTEX_INITIALIZER;
static char socket_path[4096];
static char restore_text[256];
static __thread const char *current_bundle;
static __thread const char *current_activity;

void host_exit_guard_deliberate(void) { atomic_store(&deliberate, 1); }

void host_exit_guard_socket(const char *path) {
    pthread_mutex_lock(&socket_lock);
    snprintf(socket_path, sizeof socket_path, "%s", path ? path : "");
    pthread_mutex_unlock(&socket_lock);
}

void host_exit_guard_restore(const char *text) {
    pthread_mutex_lock(&socket_lock);
    snprintf(restore_text, sizeof restore_text, "%s", text ? text : "");
    pthread_mutex_unlock(&socket_lock);
}

void host_exit_guard_activity(const char *bundle, const char *activity) {
    current_bundle = bundle;
    current_activity = activity;
}

/* The bundle file whose code is on this thread's stack: the host loads each from /proc/self/fd/N,
 * which still names the file. */
static int bundle_on_stack(char *file, size_t capacity) {
    void *frames[128];
    int count = backtrace(frames, 128);
    for (int i = 0; i < count; i++) {
        Dl_info info;
        if (!dladdr(frames[i], &info) || !info.dli_fname) continue;
        if (strncmp(info.dli_fname, "/proc/self/fd/", 14) != 0) continue;
        ssize_t length = readlink(info.dli_fname, file, capacity - 1);
        if (length <= 0) snprintf(file, capacity, "%s", info.dli_fname);
        else file[length] = 0;
        return 1;
    }
    return 0;
}

static void guard(int status, void *unused) {
    (void)unused;
    if (atomic_load(&deliberate)) return;
    char file[4096];
    const char *bundle = bundle_on_stack(file, sizeof file) ? file : current_bundle;
    pthread_mutex_lock(&socket_lock);
    if (restore_text[0]) {
        ssize_t restored = write(STDOUT_FILENO, restore_text, strlen(restore_text));
        (void)restored;
    }
    pthread_mutex_unlock(&socket_lock);
    char message[8192];
    const char *activity = current_activity ? current_activity : "running";
    if (bundle) {
        snprintf(message, sizeof message,
                 "widgets: error: %s ended the host process: it called exit(%d) while %s. A bundle must never end its "
                 "process; in queue isolation its process is the host's (process isolation would have ended only its "
                 "worker)\n",
                 bundle, status, activity);
    } else {
        snprintf(message, sizeof message,
                 "widgets: error: the host process was ended by a call to exit(%d) it did not make, from a thread "
                 "of a bundle's (queue isolation runs bundles in the host's process; process isolation would "
                 "have ended only a worker)\n",
                 status);
    }
    ssize_t written = write(STDERR_FILENO, message, strlen(message));
    (void)written;
    pthread_mutex_lock(&socket_lock);
    if (socket_path[0]) unlink(socket_path);
    pthread_mutex_unlock(&socket_lock);
    _exit(70);
}

void host_exit_guard_install(void) {
    /* backtrace() loads its unwinder on first use: done now, not inside a dying process. */
    void *frame[1];
    backtrace(frame, 1);
    on_exit(guard, NULL);
}
