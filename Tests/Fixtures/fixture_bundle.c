/*
 * Test bundles, one source: each -D flag builds a bundle that is refused for one reason, or a bundle
 * whose providers misbehave in one way. Built once per test run by Fixtures.swift.
 *
 *   -DKIND="..."          the kind of the one well-behaved widget (default "fixture.good");
 *                         KIND_FROM_FILE derives it from the file name instead ("fixture.<name>")
 *   -DABI_MAJOR=n -DABI_MINOR=n   the ABI version it claims
 *   -DBUILT_WITH="..."     its built_with
 *   -DOMIT_ENTRY           no widget_bundle_entry symbol
 *   -DENTRY_RETURNS_NULL   widget_bundle_entry returns NULL
 *   -DINIT_FAILS           initialize reports failure
 *   -DREGISTER_TWICE       registers KIND twice
 *   -DEMPTY_KIND -DNO_FAMILY   registers an invalid widget (and a valid one)
 *   -DUNDEFINED_SYMBOL     references a function nobody defines: dlopen(RTLD_NOW) fails
 *   -DBUNDLE_STRUCT_SIZE=n  the struct_size it claims for widget_bundle_t
 *   -DABI_1_0              claims ABI 1.0 with 1.0's struct size (no memory_limit): an older bundle
 *   -DMEMORY_LIMIT=n       asks for a lower heap limit for its providers (ABI 1.1)
 *   -DNULL_REQUEST         leaves widget_bundle_t.request NULL
 *   -DFAMILIES=mask -DCONFIGURATION_KIND=n   what the well-behaved widget's descriptor says
 *   -DINIT_FAILS_AFTER_REGISTERING   registers KIND, then reports failure
 *   -DBEHAVIOURS           registers one widget per misbehaviour, see request(), and exports
 *                          fixture_* control functions the tests call through dlsym; it also keeps the name of
 *                          the thread its initialize ran on (fixture_initialize_thread)
 *   -DCRASH_IN_CONSTRUCTOR  segfaults in a static initializer, while dlopen runs it
 *   -DCRASH_IN_INITIALIZE   segfaults in initialize
 *   -DHANG_IN_INITIALIZE    never returns from initialize
 *   -DHANG_IN_CONSTRUCTOR   never returns from a static initializer (dlopen holds the loader)
 *   -DEXIT_IN_INITIALIZE    calls exit(3) in initialize
 *   -DEXIT_IN_REQUEST       calls exit(0) in every request of KIND
 *   -DLARGE_TIMELINE        KIND answers with as many entries (a stack of two texts each) as fit in
 *                          FIXTURE_RESULT_BYTES (default 8 MiB, the host's limit) less 1 KiB
 *   -DWAIT_FOR_RELEASE      initialize waits until a file named as the bundle with ".release" for
 *                          ".so" exists (the test's to create), then registers KIND (a slow load)
 *   -DHOSTILE              forks a child at load that sleeps holding every descriptor, starts a thread
 *                          that hoards memory when told, and registers the hostile kinds of request()
 *   -DMETADATA             says its version, vendor, licence and homepage (ABI 1.5)
 *   -DACTIVITY             registers the Live Activity FixtureAttributes (ABI 1.7), drawn as its state's
 *                          text; a state with "hold":"PATH" and "held":"PATH" creates the second file
 *                          and draws only once the first exists (a drawing the test holds)
 *   -DESCAPING             registers fixture.escape, which starts a process that leaves its worker's
 *                          session and parent and answers, and fixture.escape-and-die, which then
 *                          SIGKILLs its own process; the process's pid goes to $FIXTURE_ESCAPE_FILE
 *   -DCOSTLY_ENTRY         registers fixture.many-views (one entry of 150 000 texts) and fixture.long-text
 *                          (one text of 7 MB), each within the result limit, and fixture.largest (the
 *                          largest entry allowed: 10 000 views, 256 KiB of text; systemLarge)
 *   -DSTACK_OVERFLOW       KIND's requests recurse until the thread's stack is gone
 *   -DREGISTER_MANY=n      registers n widgets more, "fixture.many.0" on, then one whose kind is 1 MiB of "k"
 *   -DPREVIEWS             answers a previews request (ABI 1.5) with two previews; without it, the
 *                          well-behaved widget answers one as any request, which is not a previews answer
 *   -DHOLD_LOADER          starts a thread in initialize that holds the dynamic loader's list of objects
 *                          for ever (a dl_iterate_phdr callback that never returns), as a thread stuck
 *                          in a library's constructor would
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "widget_abi.h"

#ifndef KIND
#define KIND "fixture.good"
#endif
#ifndef ABI_MAJOR
#define ABI_MAJOR WIDGET_ABI_VERSION_MAJOR
#endif
#ifndef ABI_MINOR
#define ABI_MINOR WIDGET_ABI_VERSION_MINOR
#endif
#ifndef BUILT_WITH
#define BUILT_WITH "c"
#endif
#ifdef ABI_1_0
#undef ABI_MINOR
#define ABI_MINOR 0
#define BUNDLE_STRUCT_SIZE offsetof(widget_bundle_t, memory_limit)
#define DESCRIPTOR_STRUCT_SIZE offsetof(widget_descriptor_t, configuration_schema)
#endif
#ifndef DESCRIPTOR_STRUCT_SIZE
#define DESCRIPTOR_STRUCT_SIZE sizeof(widget_descriptor_t)
#endif
#ifndef BUNDLE_STRUCT_SIZE
#define BUNDLE_STRUCT_SIZE sizeof(widget_bundle_t)
#endif
#ifndef MEMORY_LIMIT
#define MEMORY_LIMIT 0
#endif
#ifndef CONFIGURATION_KIND
#define CONFIGURATION_KIND WIDGET_CONFIGURATION_STATIC
#endif

#ifdef UNDEFINED_SYMBOL
extern int widget_fixture_function_nobody_defines(void);
int widget_fixture_use(void) { return widget_fixture_function_nobody_defines(); }
#endif

static char kind_buffer[256] = KIND;

/* Crashes as a null pointer dereference does (the compiler must not remove the store). */
static void segfault(void) { *(volatile int *)(uintptr_t)8 = 1; }

#ifdef CRASH_IN_CONSTRUCTOR
__attribute__((constructor)) static void crash_while_loading(void) { segfault(); }
#endif
#ifdef HANG_IN_CONSTRUCTOR
__attribute__((constructor)) static void hang_while_loading(void) {
    for (;;) pause();
}
#endif

static void complete(widget_completion_fn completion, void *context, const char *json) {
    widget_result_t result = {sizeof(widget_result_t), WIDGET_STATUS_OK, json, strlen(json), NULL};
    completion(context, &result);
}

static bool register_one(const widget_host_t *host, const char *kind, uint32_t families) {
    widget_descriptor_t descriptor = {
        .struct_size = DESCRIPTOR_STRUCT_SIZE,
        .kind = kind,
        .display_name = "Fixture",
        .description = "A test fixture",
        .families = families,
        .configuration_kind = strcmp(kind, kind_buffer) == 0 ? CONFIGURATION_KIND : WIDGET_CONFIGURATION_STATIC,
        .configuration_name = NULL,
        .flags = 0,
#ifdef SCHEMA
        .configuration_schema = SCHEMA,
#endif
    };
    return host->register_widget(host, &descriptor);
}

#ifdef HOLD_LOADER
#include <link.h>
static int hold_for_ever(struct dl_phdr_info *info, size_t size, void *data) {
    (void)info;
    (void)size;
    (void)data;
    for (;;) pause();
    return 0;
}
static void *hold_loader(void *unused) {
    (void)unused;
    dl_iterate_phdr(hold_for_ever, NULL);
    return NULL;
}
#endif

#ifdef BEHAVIOURS
static char initialize_thread[16];
/* The name of the thread initialize ran on. */
__attribute__((visibility("default"))) const char *fixture_initialize_thread(void) { return initialize_thread; }
#endif

static bool initialize(const widget_host_t *host, char *error, size_t error_capacity) {
#ifdef BEHAVIOURS
    pthread_getname_np(pthread_self(), initialize_thread, sizeof initialize_thread);
#endif
#ifdef HOLD_LOADER
    {
        pthread_t holder;
        pthread_create(&holder, NULL, hold_loader, NULL);
        pthread_detach(holder);
    }
#endif
#ifdef KIND_FROM_FILE
    /* The host loads the descriptor it checked (/proc/self/fd/N), which names the file. */
    Dl_info info;
    if (dladdr((void *)initialize, &info) && info.dli_fname) {
        char file[4096];
        ssize_t length = readlink(info.dli_fname, file, sizeof file - 1);
        if (length > 0) file[length] = 0;
        const char *path = length > 0 ? file : info.dli_fname;
        const char *name = strrchr(path, '/');
        name = name ? name + 1 : path;
        snprintf(kind_buffer, sizeof kind_buffer, "fixture.%.*s", (int)(strlen(name) - 3), name);
    }
#endif
#ifdef INIT_FAILS
    snprintf(error, error_capacity, "the fixture's data file is missing");
    return false;
#endif
#ifdef CRASH_IN_INITIALIZE
    segfault();
#endif
#ifdef HANG_IN_INITIALIZE
    for (;;) pause();
#endif
#ifdef EXIT_IN_INITIALIZE
    exit(3);
#endif
#ifdef WAIT_FOR_RELEASE
    {
        Dl_info self;
        char file[4096] = {0};
        if (dladdr((void *)initialize, &self) && self.dli_fname) {
            ssize_t length = readlink(self.dli_fname, file, sizeof file - 16);
            if (length <= 0) snprintf(file, sizeof file - 16, "%s", self.dli_fname);
            else file[length] = 0;
        }
        char *suffix = strrchr(file, '.');
        if (suffix) strcpy(suffix, ".release");
        struct timespec tick = {0, 10 * 1000 * 1000};
        while (access(file, F_OK) != 0) nanosleep(&tick, NULL);
    }
#endif
    (void)error;
    (void)error_capacity;
    uint32_t small = WIDGET_FAMILY_MASK(WIDGET_FAMILY_SYSTEM_SMALL);
#ifdef EMPTY_KIND
    register_one(host, "", small);
#endif
#ifdef NO_FAMILY
    register_one(host, "fixture.no-family", 0);
#endif
#ifdef REGISTER_MANY
    {
        char many[32];
        for (int i = 0; i < REGISTER_MANY; i++) {
            snprintf(many, sizeof many, "fixture.many.%d", i);
            register_one(host, many, small);
        }
        char *long_kind = malloc((1 << 20) + 1);
        memset(long_kind, 'k', 1 << 20);
        long_kind[1 << 20] = 0;
        register_one(host, long_kind, small);
        free(long_kind);
    }
#endif
#ifdef BEHAVIOURS
    const char *kinds[] = {"fixture.error", "fixture.garbage", "fixture.unsorted", "fixture.missing-date",
                           "fixture.bad-policy", "fixture.no-policy", "fixture.empty", "fixture.twice",
                           "fixture.late", "fixture.never", "fixture.two-snapshots", "fixture.slow",
                           "fixture.slow-2", "fixture.held", "fixture.counted", "fixture.small-result",
                           "fixture.multiline-error", "fixture.hog", "fixture.spike", "fixture.many",
                           "fixture.crash", "fixture.abort", "fixture.trap", "fixture.hang"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) register_one(host, kinds[i], small);
#endif
#ifdef HOSTILE
    const char *hostile[] = {"fixture.crash", "fixture.close-channel", "fixture.close-channel-later", "fixture.exit-zero", "fixture.threads",
                             "fixture.mmap-hoard", "fixture.thread-hoard", "fixture.wake-hoarder", "fixture.huge-result",
                             "fixture.long-line"};
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) register_one(host, hostile[i], small);
#endif
#ifdef COSTLY_ENTRY
    register_one(host, "fixture.many-views", small);
    register_one(host, "fixture.long-text", small);
    register_one(host, "fixture.largest", WIDGET_FAMILY_MASK(WIDGET_FAMILY_SYSTEM_LARGE));
#endif
#ifdef ACTIVITY
    {
        widget_descriptor_t activity = {
            .struct_size = sizeof(widget_descriptor_t), .kind = "FixtureAttributes", .families = WIDGET_FAMILY_MASK(WIDGET_FAMILY_SYSTEM_MEDIUM),
            .configuration_kind = WIDGET_CONFIGURATION_ACTIVITY,
        };
        host->register_widget(host, &activity);
    }
#endif
#ifdef ESCAPING
    register_one(host, "fixture.escape", small);
    register_one(host, "fixture.escape-and-die", small);
#endif
#ifdef FAMILIES
    register_one(host, kind_buffer, FAMILIES);
#else
    register_one(host, kind_buffer, small | WIDGET_FAMILY_MASK(WIDGET_FAMILY_SYSTEM_MEDIUM));
#endif
#ifdef INIT_FAILS_AFTER_REGISTERING
    snprintf(error, error_capacity, "gave up after registering");
    return false;
#endif
#ifdef REGISTER_TWICE
    register_one(host, kind_buffer, small);
#endif
    return true;
}

struct late_call {
    widget_completion_fn completion;
    void *context;
};

static void *complete_later(void *argument) {
    struct late_call *call = argument;
    complete(call->completion, call->context,
             "{\"entries\":[{\"date\":1000,\"view\":{\"view\":\"text\",\"text\":\"late\"}}],\"policy\":{\"kind\":\"never\"}}");
    free(call);
    return NULL;
}

#ifdef BEHAVIOURS
/* Providers a test holds and releases, to show what waits for what without sleeping.
 *   fixture.slow, fixture.slow-2  block inside request() until released, then answer
 *   fixture.held                  return at once and answer when released (from the releasing thread)
 *   fixture.counted               answer after a short busy loop, recording how many calls overlap */
enum { SLOTS = 4 };
static const char *slot_kinds[SLOTS] = {"fixture.slow", "fixture.slow-2", "fixture.held", "fixture.counted"};
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int entered[SLOTS], released[SLOTS], inside[SLOTS], max_inside[SLOTS];
static widget_completion_fn held_completion;
static void *held_context;

static int slot(const char *kind) {
    for (int i = 0; i < SLOTS; i++)
        if (strcmp(kind, slot_kinds[i]) == 0) return i;
    return -1;
}

static const char *answer = "{\"entries\":[{\"date\":1000,\"view\":{\"view\":\"text\",\"text\":\"released\"}}],"
                            "\"policy\":{\"kind\":\"never\"}}";

/* Lets one held call of `kind` go on. */
__attribute__((visibility("default"))) void fixture_release(const char *kind) {
    int i = slot(kind);
    pthread_mutex_lock(&mutex);
    released[i]++;
    widget_completion_fn completion = i == 2 ? held_completion : NULL;
    void *context = held_context;
    held_completion = NULL;
    pthread_cond_broadcast(&changed);
    pthread_mutex_unlock(&mutex);
    if (completion) complete(completion, context, answer);
}

/* Waits until `kind` has been entered `count` times in all; false after 60 s (a hung test fails; a
 * loaded 2-core CI machine can take more than 10 s to schedule a provider's queue). */
__attribute__((visibility("default"))) bool fixture_wait_entered(const char *kind, int count) {
    int i = slot(kind);
    struct timespec limit;
    clock_gettime(CLOCK_REALTIME, &limit);
    limit.tv_sec += 60;
    pthread_mutex_lock(&mutex);
    int status = 0;
    while (entered[i] < count && status == 0) status = pthread_cond_timedwait(&changed, &mutex, &limit);
    bool reached = entered[i] >= count;
    pthread_mutex_unlock(&mutex);
    return reached;
}

__attribute__((visibility("default"))) int fixture_entered(const char *kind) {
    pthread_mutex_lock(&mutex);
    int value = entered[slot(kind)];
    pthread_mutex_unlock(&mutex);
    return value;
}

__attribute__((visibility("default"))) int fixture_max_overlap(const char *kind) {
    pthread_mutex_lock(&mutex);
    int value = max_inside[slot(kind)];
    pthread_mutex_unlock(&mutex);
    return value;
}

/* Returns true when the request was one of the held kinds (and has been answered or held). */
static bool held_request(const char *kind, widget_completion_fn completion, void *context) {
    int i = slot(kind);
    if (i < 0) return false;
    pthread_mutex_lock(&mutex);
    entered[i]++;
    inside[i]++;
    if (inside[i] > max_inside[i]) max_inside[i] = inside[i];
    pthread_cond_broadcast(&changed);
    if (i == 2) {
        held_completion = completion;
        held_context = context;
        inside[i]--;
        pthread_mutex_unlock(&mutex);
        return true;
    }
    if (i == 3) {
        pthread_mutex_unlock(&mutex);
        for (volatile int spin = 0; spin < 200000; spin++) {}
        pthread_mutex_lock(&mutex);
    } else {
        int ticket = entered[i];
        while (released[i] < ticket) pthread_cond_wait(&changed, &mutex);
    }
    inside[i]--;
    pthread_mutex_unlock(&mutex);
    complete(completion, context, answer);
    return true;
}
#endif

#ifdef ESCAPING
/* Starts a process that leaves: a grandchild in a session of its own (setsid) whose parent has
 * ended, so it is in neither the worker's group nor its session, and is no one's child but an
 * adopter's. Its pid goes to $FIXTURE_ESCAPE_FILE before this returns. */
static void escape(void) {
    int ready[2];
    if (pipe(ready) != 0) return;
    pid_t child = fork();
    if (child == 0) {
        if (fork() == 0) {
            setsid();
            /* Holds none of the worker's descriptors: only being alive tells it outlived its worker. */
            int null = open("/dev/null", O_RDWR);
            for (int fd = 0; fd < 3; fd++) dup2(null, fd);
            for (int fd = 3; fd < 1024; fd++)
                if (fd != ready[1]) close(fd);
            const char *file = getenv("FIXTURE_ESCAPE_FILE");
            FILE *out = file ? fopen(file, "w") : NULL;
            if (out) {
                fprintf(out, "%d\n", (int)getpid());
                fclose(out);
            }
            (void)!write(ready[1], "x", 1);
            for (int i = 0; i < 300; i++) sleep(1);
            _exit(0);
        }
        _exit(0);
    }
    close(ready[1]);
    char byte;
    (void)!read(ready[0], &byte, 1);
    close(ready[0]);
    waitpid(child, NULL, 0);
}

static bool escaping_request(const char *kind, widget_completion_fn completion, void *context) {
    if (strcmp(kind, "fixture.escape") == 0) {
        escape();
        complete(completion, context, "{\"entries\":[{\"date\":1000,\"view\":{\"view\":\"text\",\"text\":\"ok\"}}],\"policy\":{\"kind\":\"never\"}}");
        return true;
    }
    if (strcmp(kind, "fixture.escape-and-die") == 0) {
        escape();
        kill(getpid(), SIGKILL); /* no time for the worker to end what the bundle started */
    }
    return false;
}
#endif

#ifdef HOSTILE
/* At load: a child forked without exec, which keeps a copy of every descriptor (the channel
 * included) and sleeps; its pid goes to $FIXTURE_CHILD_FILE. And a thread, started at load (so no
 * provider's), that hoards memory once a request wakes it. */
static pthread_mutex_t hoard_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hoard_wake = PTHREAD_COND_INITIALIZER;
static int hoard_woken;

static void *hoarder(void *unused) {
    (void)unused;
    pthread_mutex_lock(&hoard_mutex);
    while (!hoard_woken) pthread_cond_wait(&hoard_wake, &hoard_mutex);
    pthread_mutex_unlock(&hoard_mutex);
    for (int i = 0; i < 400; i++) {
        char *block = malloc(1u << 20);
        if (block) memset(block, 1, 1u << 20);
    }
    return NULL;
}

__attribute__((constructor)) static void hostile_load(void) {
    pid_t child = fork();
    if (child == 0) {
        for (int i = 0; i < 300; i++) sleep(1);
        _exit(0);
    }
    const char *file = getenv("FIXTURE_CHILD_FILE");
    if (file && child > 0) {
        FILE *out = fopen(file, "w");
        if (out) {
            fprintf(out, "%d\n", (int)child);
            fclose(out);
        }
    }
    pthread_t thread;
    pthread_create(&thread, NULL, hoarder, NULL);
    pthread_detach(thread);
}

static void *idle_thread(void *unused) {
    (void)unused;
    for (;;) pause();
    return NULL;
}

static void *hoard_in_thread(void *unused) {
    (void)unused;
    for (int i = 0; i < 400; i++) {
        char *block = malloc(1u << 20);
        if (block) memset(block, 1, 1u << 20);
    }
    return NULL;
}

static const char *ok_answer = "{\"entries\":[{\"date\":1000,\"view\":{\"view\":\"text\",\"text\":\"ok\"}}],\"policy\":{\"kind\":\"never\"}}";

/* True when the request was one of the hostile kinds. */
static bool hostile_request(const char *kind, widget_completion_fn completion, void *context) {
    if (strcmp(kind, "fixture.close-channel") == 0) {
        close(3); /* the worker's channel to the host */
        for (;;) pause();
    }
    if (strcmp(kind, "fixture.close-channel-later") == 0) {
        /* After the worker has handed its reading to another thread, which waits on descriptor 3
           when it is closed: that wait holds the socket open, so the host sees no end of it. */
        usleep(200000);
        close(3);
        for (;;) pause();
    }
    if (strcmp(kind, "fixture.exit-zero") == 0) exit(0);
    if (strcmp(kind, "fixture.threads") == 0) {
        for (int i = 0; i < 1000; i++) {
            pthread_t thread;
            if (pthread_create(&thread, NULL, idle_thread, NULL) != 0) break;
        }
        complete(completion, context, ok_answer);
        return true;
    }
    if (strcmp(kind, "fixture.mmap-hoard") == 0) {
        for (int i = 0; i < 200; i++) {
            char *block = mmap(NULL, 1u << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (block != MAP_FAILED) memset(block, 1, 1u << 20);
        }
        complete(completion, context, ok_answer);
        return true;
    }
    if (strcmp(kind, "fixture.thread-hoard") == 0) {
        pthread_t thread;
        pthread_create(&thread, NULL, hoard_in_thread, NULL);
        pthread_join(thread, NULL);
        complete(completion, context, ok_answer);
        return true;
    }
    if (strcmp(kind, "fixture.wake-hoarder") == 0) {
        pthread_mutex_lock(&hoard_mutex);
        hoard_woken = 1;
        pthread_cond_broadcast(&hoard_wake);
        pthread_mutex_unlock(&hoard_mutex);
        for (;;) pause(); /* answers never: the worker ends under it */
    }
    if (strcmp(kind, "fixture.huge-result") == 0) {
        /* A 20 MiB timeline (under its 30 MiB memory limit), built in a mapping of its own. */
        size_t capacity = 20u << 20;
        char *json = mmap(NULL, capacity + 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        size_t length = (size_t)sprintf(json, "{\"entries\":[{\"date\":1000,\"view\":{\"view\":\"text\",\"text\":\"");
        memset(json + length, 'x', capacity - length - 64);
        length = capacity - 64;
        length += (size_t)sprintf(json + length, "\"}}],\"policy\":{\"kind\":\"never\"}}");
        widget_result_t result = {sizeof(widget_result_t), WIDGET_STATUS_OK, json, length, NULL};
        completion(context, &result);
        munmap(json, capacity + 4096);
        return true;
    }
    if (strcmp(kind, "fixture.long-line") == 0) {
        /* 4 MiB on standard error without a newline, then an answer. */
        char *line = malloc(1u << 20);
        memset(line, 'y', 1u << 20);
        for (int i = 0; i < 4; i++) fwrite(line, 1, 1u << 20, stderr);
        fflush(stderr);
        free(line);
        complete(completion, context, ok_answer);
        return true;
    }
    return false;
}
#endif

#ifdef STACK_OVERFLOW
/* Recurses without end, each frame a page the compiler cannot drop. */
__attribute__((noinline)) static int overflow(int depth) {
    volatile char frame[4096];
    frame[depth % 4096] = (char)depth;
    return overflow(depth + 1) + frame[(depth + 1) % 4096];
}
#endif

#ifdef ACTIVITY
/* The string value of `"name":"...` in `json`, copied into `value` (no escapes), or false. */
static bool string_member(const char *json, const char *name, char *value, size_t capacity) {
    char key[64];
    snprintf(key, sizeof key, "\"%s\":\"", name);
    const char *start = strstr(json, key);
    if (!start) return false;
    start += strlen(key);
    const char *end = strchr(start, '"');
    if (!end || (size_t)(end - start) >= capacity) return false;
    memcpy(value, start, (size_t)(end - start));
    value[end - start] = 0;
    return true;
}

/* Draws FixtureAttributes: its state as text, once a held drawing is released. */
static bool activity_request(const widget_request_t *request, widget_completion_fn completion, void *context) {
    if (request->request_kind != WIDGET_REQUEST_ACTIVITY) return false;
    char hold[1024], held[1024];
    if (string_member(request->configuration, "hold", hold, sizeof hold) && string_member(request->configuration, "held", held, sizeof held)) {
        FILE *marker = fopen(held, "w");
        if (marker) fclose(marker);
        for (int i = 0; i < 6000 && access(hold, F_OK) != 0; i++) usleep(10000);
    }
    const char *state = strstr(request->configuration, "\"state\":");
    char answer[512];
    int length = snprintf(answer, sizeof answer, "{\"lockScreen\":{\"view\":\"text\",\"text\":\"%s\"}}", state && strstr(state, "\"n\":2") ? "two" : "one");
    widget_result_t result = {sizeof(widget_result_t), WIDGET_STATUS_OK, answer, (size_t)length, NULL};
    completion(context, &result);
    return true;
}
#endif

static void request(const widget_request_t *request, widget_completion_fn completion, void *context) {
    const char *kind = request->widget_kind;
#ifdef ACTIVITY
    if (activity_request(request, completion, context)) return;
#endif
#ifdef BEHAVIOURS
    if (held_request(kind, completion, context)) return;
#endif
#ifdef HOSTILE
    if (hostile_request(kind, completion, context)) return;
#endif
#ifdef ESCAPING
    if (escaping_request(kind, completion, context)) return;
#endif
#ifdef STACK_OVERFLOW
    overflow(1);
#endif
#ifdef EXIT_IN_REQUEST
    exit(0);
#endif
#ifdef COSTLY_ENTRY
    /* One entry within the result limit that would cost the host far more to hold and draw:
     * fixture.many-views has 150 000 texts, fixture.long-text one text of 7 MB. */
    if (strcmp(kind, "fixture.largest") == 0) {
        /* The largest entry allowed: 10 000 views (a stack of 9 999 texts) and 256 KiB of text. */
        size_t capacity = 1u << 20, length = 0;
        char *json = malloc(capacity);
        length += (size_t)sprintf(json, "{\"entries\":[{\"date\":1000,\"view\":{\"view\":\"vstack\",\"children\":[");
        for (int i = 0; i < 9999; i++)
            length += (size_t)sprintf(json + length, "%s{\"view\":\"text\",\"text\":\"%05d abcdefghijklmnopqrs\"}", i ? "," : "", i);
        length += (size_t)sprintf(json + length, "]}}],\"policy\":{\"kind\":\"never\"}}");
        widget_result_t result = {sizeof(widget_result_t), WIDGET_STATUS_OK, json, length, NULL};
        completion(context, &result);
        free(json);
        return;
    }
    if (strcmp(kind, "fixture.many-views") == 0 || strcmp(kind, "fixture.long-text") == 0) {
        int many = strcmp(kind, "fixture.many-views") == 0;
        size_t capacity = 8u << 20, length = 0;
        char *json = malloc(capacity);
        length += (size_t)sprintf(json, "{\"entries\":[{\"date\":1000,\"view\":");
        if (many) {
            length += (size_t)sprintf(json + length, "{\"view\":\"vstack\",\"children\":[");
            for (int i = 0; i < 150000; i++) length += (size_t)sprintf(json + length, "%s{\"view\":\"text\",\"text\":\"a\"}", i ? "," : "");
            length += (size_t)sprintf(json + length, "]}");
        } else {
            length += (size_t)sprintf(json + length, "{\"view\":\"text\",\"text\":\"");
            memset(json + length, 'x', 7000000);
            length += 7000000;
            length += (size_t)sprintf(json + length, "\"}");
        }
        length += (size_t)sprintf(json + length, "}],\"policy\":{\"kind\":\"never\"}}");
        widget_result_t result = {sizeof(widget_result_t), WIDGET_STATUS_OK, json, length, NULL};
        completion(context, &result);
        free(json);
        return;
    }
#endif
#ifdef LARGE_TIMELINE
    {
        const char *given = getenv("FIXTURE_RESULT_BYTES");
        size_t limit = (given ? strtoul(given, NULL, 10) : (8u << 20)) - 1024;
        char *json = malloc(limit + 1024);
        char filler[201];
        memset(filler, 'x', 200);
        filler[200] = 0;
        size_t length = (size_t)sprintf(json, "{\"entries\":[");
        for (int i = 0;; i++) {
            char entry[512];
            int count = snprintf(entry, sizeof entry,
                                 "%s{\"date\":%d,\"view\":{\"view\":\"vstack\",\"children\":[{\"view\":\"text\",\"text\":\"Entry "
                                 "%d\"},{\"view\":\"text\",\"text\":\"%s\"}]}}",
                                 i ? "," : "", 1000000000 + i * 60, i, filler);
            if (length + (size_t)count + 64 > limit) break;
            memcpy(json + length, entry, (size_t)count);
            length += (size_t)count;
        }
        length += (size_t)sprintf(json + length, "],\"policy\":{\"kind\":\"never\"}}");
        widget_result_t result = {sizeof(widget_result_t), WIDGET_STATUS_OK, json, length, NULL};
        completion(context, &result);
        free(json);
        return;
    }
#endif
    /* Crashes: what process isolation contains. */
    if (strcmp(kind, "fixture.crash") == 0) segfault();
    if (strcmp(kind, "fixture.abort") == 0) abort();
    if (strcmp(kind, "fixture.trap") == 0) __builtin_trap(); /* what Swift's fatalError compiles to */
    if (strcmp(kind, "fixture.hang") == 0) {
        /* Says so (a test waits for the line), then stays inside its call for good. */
        fprintf(stderr, "fixture.hang: inside its call\n");
        fflush(stderr);
        for (;;) pause();
    }
    if (strcmp(kind, "fixture.hog") == 0) {
        /* Allocates 100 MiB during its call and keeps it (a leak, as a runaway provider has). */
        static void *kept[64];
        static int count;
        if (count < 64) kept[count++] = malloc(100u << 20);
        /* Without this the compiler sees the block is never read and removes the allocation. */
        __asm__ volatile("" : : "r"(kept) : "memory");
        complete(completion, context,
                 "{\"entries\":[{\"date\":1000,\"view\":{\"view\":\"text\",\"text\":\"hog\"}}],\"policy\":{\"kind\":\"never\"}}");
        return;
    }
    if (strcmp(kind, "fixture.many") == 0) {
        /* 10 000 entries, one a minute. */
        enum { COUNT = 10000, EACH = 96 };
        char *json = malloc(COUNT * EACH + 64);
        size_t length = (size_t)sprintf(json, "{\"entries\":[");
        for (int i = 0; i < COUNT; i++)
            length += (size_t)sprintf(json + length, "%s{\"date\":%d,\"view\":{\"view\":\"text\",\"text\":\"entry %d\"}}",
                                      i ? "," : "", 1000000 + 60 * i, i);
        length += (size_t)sprintf(json + length, "],\"policy\":{\"kind\":\"atEnd\"}}");
        widget_result_t result = {sizeof(widget_result_t), WIDGET_STATUS_OK, json, length, NULL};
        completion(context, &result);
        free(json);
        return;
    }
    if (strcmp(kind, "fixture.spike") == 0) {
        /* Uses 29 MiB for a moment and frees it: under the 30 MiB limit, it must pass. */
        char *block = malloc(29u << 20);
        if (block) memset(block, 1, 29u << 20);
        __asm__ volatile("" : : "r"(block) : "memory");
        free(block);
        complete(completion, context,
                 "{\"entries\":[{\"date\":1000,\"view\":{\"view\":\"text\",\"text\":\"spike\"}}],\"policy\":{\"kind\":\"never\"}}");
        return;
    }
    if (strcmp(kind, "fixture.small-result") == 0) {
        /* Claims a struct too small to hold error_message; the host must not read it. */
        widget_result_t result = {8, WIDGET_STATUS_ERROR, NULL, 0, (const char *)16};
        completion(context, &result);
    } else if (strcmp(kind, "fixture.multiline-error") == 0) {
        widget_result_t result = {sizeof(widget_result_t), WIDGET_STATUS_ERROR, NULL, 0,
                                  "first line\nwidgets: error: a forged line"};
        completion(context, &result);
    } else if (strcmp(kind, "fixture.error") == 0) {
        widget_result_t result = {sizeof(widget_result_t), WIDGET_STATUS_ERROR, NULL, 0, "the server is down"};
        completion(context, &result);
    } else if (strcmp(kind, "fixture.garbage") == 0) {
        complete(completion, context, "{\"entries\": [ {\"date\": 12, \"view\": ");
    } else if (strcmp(kind, "fixture.unsorted") == 0) {
        complete(completion, context,
                 "{\"entries\":[{\"date\":3000,\"view\":{\"view\":\"text\",\"text\":\"third\"}},"
                 "{\"date\":1000,\"view\":{\"view\":\"text\",\"text\":\"first\"}},"
                 "{\"date\":2000,\"view\":{\"view\":\"text\",\"text\":\"second a\"}},"
                 "{\"date\":2000,\"view\":{\"view\":\"text\",\"text\":\"second b\"}}],"
                 "\"policy\":{\"kind\":\"atEnd\"}}");
    } else if (strcmp(kind, "fixture.missing-date") == 0) {
        complete(completion, context,
                 "{\"entries\":[{\"date\":1000,\"view\":{\"view\":\"text\",\"text\":\"ok\"}},"
                 "{\"view\":{\"view\":\"text\",\"text\":\"no date\"}}],\"policy\":{\"kind\":\"atEnd\"}}");
    } else if (strcmp(kind, "fixture.bad-policy") == 0) {
        complete(completion, context,
                 "{\"entries\":[{\"date\":1000,\"view\":{\"view\":\"text\",\"text\":\"ok\"}}],"
                 "\"policy\":{\"kind\":\"sometimes\"}}");
    } else if (strcmp(kind, "fixture.no-policy") == 0) {
        complete(completion, context, "{\"entries\":[{\"date\":1000,\"view\":{\"view\":\"text\",\"text\":\"ok\"}}]}");
    } else if (strcmp(kind, "fixture.empty") == 0) {
        complete(completion, context, "{\"entries\":[],\"policy\":{\"kind\":\"never\"}}");
    } else if (strcmp(kind, "fixture.twice") == 0) {
        const char *json = "{\"entries\":[{\"date\":1000,\"view\":{\"view\":\"text\",\"text\":\"once\"}}],"
                           "\"policy\":{\"kind\":\"never\"}}";
        complete(completion, context, json);
        complete(completion, context, json);
    } else if (strcmp(kind, "fixture.late") == 0) {
        struct late_call *call = malloc(sizeof *call);
        call->completion = completion;
        call->context = context;
        pthread_t thread;
        pthread_create(&thread, NULL, complete_later, call);
        pthread_detach(thread);
    } else if (strcmp(kind, "fixture.never") == 0) {
        /* never completes */
    } else if (strcmp(kind, "fixture.two-snapshots") == 0) {
        complete(completion, context,
                 "{\"entries\":[{\"date\":1000,\"view\":{\"view\":\"text\",\"text\":\"a\"}},"
                 "{\"date\":2000,\"view\":{\"view\":\"text\",\"text\":\"b\"}}]}");
#ifdef PREVIEWS
    } else if (request->request_kind == WIDGET_REQUEST_PREVIEWS) {
        complete(completion, context,
                 "{\"previews\":[{\"name\":\"Sunny\",\"family\":\"systemSmall\",\"entries\":["
                 "{\"date\":1763750000,\"view\":{\"view\":\"text\",\"text\":\"sun\"}},"
                 "{\"date\":1763753600,\"view\":{\"view\":\"text\",\"text\":\"more sun\"}}]},"
                 "{\"name\":null,\"family\":\"accessoryInline\",\"entries\":[{\"date\":1763750000,\"view\":{\"view\":\"text\",\"text\":\"inline\"}}]}]}");
#endif
    } else {
        /* The well-behaved widget: one entry per request, with the request echoed back: its kind,
         * family, preview flag and size as text, and as attributes of the stack the request's
         * struct_size and, when that covers ABI 1.4's fields, its colour scheme, rendering mode and
         * container background, as the header's numbers. */
        char json[1024], environment[128] = "";
        const char *names[] = {"placeholder", "snapshot", "timeline"};
        if (request->struct_size >= WIDGET_REQUEST_SIZE_1_4)
            snprintf(environment, sizeof environment, ",\"colorScheme\":%u,\"renderingMode\":%u,\"background\":%s",
                     request->color_scheme, request->rendering_mode, request->shows_container_background ? "true" : "false");
        snprintf(json, sizeof json,
                 "{\"entries\":[{\"date\":1763750000,\"relevance\":{\"score\":0.5,\"duration\":60},"
                 "\"view\":{\"view\":\"vstack\",\"requestSize\":%u%s,\"children\":[{\"view\":\"text\",\"text\":\"%s\"},"
                 "{\"view\":\"text\",\"text\":\"%s family %u preview %d size %.0fx%.0f\"}]}}]%s}",
                 request->struct_size, environment, kind, names[request->request_kind % 3], request->family, request->is_preview,
                 request->display_width, request->display_height,
                 request->request_kind == WIDGET_REQUEST_TIMELINE ? ",\"policy\":{\"kind\":\"after\",\"date\":1763750900}" : "");
        complete(completion, context, json);
    }
}

static const widget_bundle_t bundle = {
    .abi_version = {ABI_MAJOR, ABI_MINOR},
    .struct_size = BUNDLE_STRUCT_SIZE,
    .name = "Fixture",
    .built_with = BUILT_WITH,
    .initialize = initialize,
#ifdef NULL_REQUEST
    .request = NULL,
#else
    .request = request,
#endif
    .shutdown = NULL,
    .memory_limit = MEMORY_LIMIT,
#ifdef METADATA
    WIDGET_BUNDLE_METADATA("1.2.0", "Example Ltd", "MIT", "https://example.org/widgets"),
#endif
};

#if defined(ENTRY_RETURNS_NULL)
__attribute__((visibility("default"))) const widget_bundle_t *widget_bundle_entry(void) { return bundle.name ? NULL : &bundle; }
#elif !defined(OMIT_ENTRY)
__attribute__((visibility("default"))) const widget_bundle_t *widget_bundle_entry(void) { return &bundle; }
#else
__attribute__((visibility("default"))) const widget_bundle_t *some_other_symbol(void) { return &bundle; }
#endif
