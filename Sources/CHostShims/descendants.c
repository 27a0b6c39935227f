#define _GNU_SOURCE
#include "host_shims.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

int host_become_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

short host_spawn_setsid_flag(void) { return POSIX_SPAWN_SETSID; }

/* One process as /proc shows it. */
struct process {
    pid_t pid, ppid, group, sid;
    int ended; /* a zombie: ended, not yet reaped */
};

/* Every process of the system (those this user may see), read from /proc/PID/stat: the fields after
 * the command's closing parenthesis (the command may hold any byte, a parenthesis too) are the
 * state, the parent, the group and the session. Returns the count; *list is malloc'd. */
static size_t processes(struct process **list) {
    size_t count = 0, capacity = 256;
    *list = malloc(capacity * sizeof **list);
    DIR *proc = opendir("/proc");
    if (!proc || !*list) {
        if (proc) closedir(proc);
        return 0;
    }
    struct dirent *entry;
    while ((entry = readdir(proc))) {
        char *end;
        long pid = strtol(entry->d_name, &end, 10);
        if (*end || pid <= 0) continue;
        char path[64], text[1024];
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
        FILE *file = fopen(path, "re");
        if (!file) continue;
        size_t length = fread(text, 1, sizeof text - 1, file);
        fclose(file);
        text[length] = 0;
        char *close = strrchr(text, ')');
        char state;
        int ppid, group, session;
        if (!close || sscanf(close + 1, " %c %d %d %d", &state, &ppid, &group, &session) != 4) continue;
        if (state == 'X') continue;
        if (count == capacity) {
            struct process *grown = realloc(*list, (capacity *= 2) * sizeof **list);
            if (!grown) break;
            *list = grown;
        }
        (*list)[count++] = (struct process){(pid_t)pid, (pid_t)ppid, (pid_t)group, (pid_t)session, state == 'Z'};
    }
    closedir(proc);
    return count;
}

/* Marks the descendants of the marked processes (a process is marked once its parent is; passes
 * until nothing changes, as a list from /proc is in no particular order). */
static void mark_descendants(const struct process *list, size_t count, char *marked) {
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < count; i++) {
            if (marked[i]) continue;
            for (size_t j = 0; j < count; j++) {
                if (marked[j] && list[j].pid == list[i].ppid) {
                    marked[i] = changed = 1;
                    break;
                }
            }
        }
    }
}

/* Kills what `pick` marks, and every descendant of it, in rounds: a process killed while it forked
 * leaves an orphan, which the nearest subreaper (this process, or the root) adopts and the next round
 * finds. Reaps the killed children of this process. Returns how many it killed. */
static int kill_marked(int (*pick)(const struct process *, void *), void *context) {
    int killed = 0;
    for (int round = 0; round < 64; round++) {
        struct process *list;
        size_t count = processes(&list);
        char *marked = calloc(count ? count : 1, 1);
        if (!marked) {
            free(list);
            break;
        }
        for (size_t i = 0; i < count; i++) marked[i] = (char)pick(&list[i], context);
        mark_descendants(list, count, marked);
        int found = 0;
        for (size_t i = 0; i < count; i++) {
            if (!marked[i] || list[i].pid == getpid()) continue;
            if (list[i].ended) continue;
            if (kill(list[i].pid, SIGKILL) == 0) {
                found++;
            } else {
                marked[i] = 0; /* not ours to end (a setuid program): never waited for */
            }
        }
        /* Reaped: those killed (they end at once) and those already ended; never blocking on one
         * that was not killed. */
        for (size_t i = 0; i < count; i++) {
            if (marked[i] && list[i].ppid == getpid()) {
                while (waitpid(list[i].pid, NULL, 0) < 0 && errno == EINTR) {}
            }
        }
        free(list);
        free(marked);
        killed += found;
        if (!found) break;
    }
    return killed;
}

static int is_child_of(const struct process *process, void *root) {
    return process->ppid == *(pid_t *)root;
}

/* Whether the process has a child: 1, 0, or -1 when the kernel cannot say (no
 * /proc/PID/task/TID/children, a kernel without CONFIG_PROC_CHILDREN). */
static int has_children(pid_t pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *tasks = opendir(path);
    if (!tasks) return -1;
    int answer = 0;
    struct dirent *task;
    while (answer == 0 && (task = readdir(tasks))) {
        if (task->d_name[0] == '.') continue;
        char children[96];
        snprintf(children, sizeof children, "/proc/%d/task/%s/children", (int)pid, task->d_name);
        FILE *file = fopen(children, "re");
        if (!file) {
            answer = -1;
            break;
        }
        if (fgetc(file) != EOF) answer = 1;
        fclose(file);
    }
    closedir(tasks);
    return answer;
}

int host_kill_descendants(int root) {
    /* A process with no child has no descendant (its descendants are reached through its children,
     * and an orphan of one is adopted by it as their subreaper): /proc is then not read whole, as
     * every worker ending with its host would read it (a hundred workers, a few hundred files each). */
    if (has_children(root) == 0) return 0;
    pid_t parent = root;
    return kill_marked(is_child_of, &parent);
}

struct orphan_rule {
    const int *keep;
    int keep_count;
    pid_t group, session;
};

/* A child of this process it did not start: one in another session (a bundle's, whose worker led
 * that session, or which left it), one in this process's own group (forked by a bundle running in
 * this process: what the host starts itself gets a group of its own, as `Subprocess` and
 * Foundation's Process give one), or an adopted one that has ended (reaped here, as init would). */
static int is_orphan(const struct process *process, void *context) {
    const struct orphan_rule *rule = context;
    if (process->ppid != getpid()) return 0;
    if (process->sid == rule->session && process->group != rule->group) {
        /* Of this session, in a group of its own: left to run. Once ended, reaped here, unless it
         * leads its group, as a child `Subprocess` started does: its owner reaps it. */
        if (!process->ended || process->group == process->pid) return 0;
    }
    for (int i = 0; i < rule->keep_count; i++)
        if (rule->keep[i] == process->pid) return 0;
    return 1;
}

int host_kill_adopted(const int *keep, int keep_count) {
    struct orphan_rule rule = {keep, keep_count, getpgrp(), getsid(0)};
    return kill_marked(is_orphan, &rule);
}

void host_end_own_group(void) {
    host_kill_descendants(getpid()); /* those that left its group (setsid), adopted as a subreaper */
    kill(0, SIGKILL);                /* every process of this one's group, this one included */
    _exit(0);                        /* not reached */
}
