/*
 * A widget bundle in plain C: proof that widget_abi.h is the whole contract.
 *
 * One widget, "org.widgets.host-info": the machine's host name, kernel and architecture, from
 * uname(2). It changes rarely, so the timeline has one entry and asks again after an hour.
 *
 * Build: cc -shared -fPIC -O2 -I Sources/CWidgetABI/include Plugins/HostInfo/hostinfo.c -o libHostInfo.so
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "widget_abi.h"

#define KIND "org.widgets.host-info"

/* Appends `text` to `out` as a JSON string literal. Returns the new length, or -1 when it does not fit. */
static int append_json_string(char *out, size_t capacity, int length, const char *text) {
    if (length < 0 || (size_t)length + 2 >= capacity) return -1;
    out[length++] = '"';
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        char escape[8] = {0};
        if (*p == '"' || *p == '\\') snprintf(escape, sizeof escape, "\\%c", *p);
        else if (*p < 0x20) snprintf(escape, sizeof escape, "\\u%04x", *p);
        else escape[0] = (char)*p;
        size_t n = strlen(escape);
        if ((size_t)length + n + 2 >= capacity) return -1;
        memcpy(out + length, escape, n);
        length += (int)n;
    }
    out[length++] = '"';
    out[length] = '\0';
    return length;
}

static int append(char *out, size_t capacity, int length, const char *text) {
    size_t n = strlen(text);
    if (length < 0 || (size_t)length + n >= capacity) return -1;
    memcpy(out + length, text, n + 1);
    return length + (int)n;
}

/* One text view with modifiers, e.g. {"view":"text","text":"...","modifiers":[{"font":"headline"}]}. */
static int append_text(char *out, size_t capacity, int length, const char *text, const char *font) {
    length = append(out, capacity, length, "{\"view\":\"text\",\"text\":");
    length = append_json_string(out, capacity, length, text);
    if (font) {
        length = append(out, capacity, length, ",\"modifiers\":[{\"font\":");
        length = append_json_string(out, capacity, length, font);
        length = append(out, capacity, length, "}]");
    }
    return append(out, capacity, length, "}");
}

static void fail(widget_completion_fn completion, void *context, const char *message) {
    widget_result_t result = {sizeof(widget_result_t), WIDGET_STATUS_ERROR, NULL, 0, message};
    completion(context, &result);
}

static bool initialize(const widget_host_t *host, char *error, size_t error_capacity) {
    if (host->struct_size < sizeof(widget_host_t) || !host->register_widget) {
        snprintf(error, error_capacity, "host is too old: no register_widget");
        return false;
    }
    widget_descriptor_t descriptor = {
        .struct_size = sizeof(widget_descriptor_t),
        .kind = KIND,
        .display_name = "Host Info",
        .description = "This machine's name, kernel and architecture. Written in C.",
        .families = WIDGET_FAMILY_MASK(WIDGET_FAMILY_SYSTEM_SMALL) | WIDGET_FAMILY_MASK(WIDGET_FAMILY_SYSTEM_MEDIUM) |
                    WIDGET_FAMILY_MASK(WIDGET_FAMILY_ACCESSORY_INLINE),
        .configuration_kind = WIDGET_CONFIGURATION_STATIC,
        .configuration_name = NULL,
        .flags = 0,
    };
    host->register_widget(host, &descriptor);
    return true;
}

/* One entry: the date, then the view for `family` (its content inside the system's margins). */
static int append_entry(char *out, size_t capacity, int length, const struct utsname *names, widget_family_t family, long date) {
    char kernel[160];
    snprintf(kernel, sizeof kernel, "%s %s", names->sysname, names->release);
    char start[64];
    snprintf(start, sizeof start, "{\"date\":%ld,\"view\":", date);
    length = append(out, capacity, length, start);
    if (family == WIDGET_FAMILY_ACCESSORY_INLINE) {
        length = append_text(out, capacity, length, names->nodename, NULL);
    } else {
        length = append(out, capacity, length, "{\"view\":\"vstack\",\"alignment\":\"leading\",\"children\":[");
        length = append_text(out, capacity, length, names->nodename, "headline");
        length = append(out, capacity, length, ",");
        length = append_text(out, capacity, length, kernel, "caption");
        length = append(out, capacity, length, ",");
        length = append_text(out, capacity, length, names->machine, "caption");
        length = append(out, capacity, length, "]}");
    }
    return append(out, capacity, length, "}");
}

static void sample_names(struct utsname *names, const char *node) {
    snprintf(names->nodename, sizeof names->nodename, "%s", node);
    strcpy(names->sysname, "Linux");
    strcpy(names->release, "6.0.0");
    strcpy(names->machine, "x86_64");
}

static void request(const widget_request_t *request, widget_completion_fn completion, void *context) {
    if (strcmp(request->widget_kind, KIND) != 0) {
        fail(completion, context, "unknown widget kind");
        return;
    }
    long now = (long)time(NULL);
    char json[2048];
    int length = 0;
    struct utsname names;
    switch (request->request_kind) {
    case WIDGET_REQUEST_PLACEHOLDER:
    case WIDGET_REQUEST_SNAPSHOT:
    case WIDGET_REQUEST_TIMELINE:
        if (request->request_kind == WIDGET_REQUEST_PLACEHOLDER) {
            sample_names(&names, "hostname");
        } else if (uname(&names) != 0) {
            fail(completion, context, "uname failed");
            return;
        }
        length = append(json, sizeof json, length, "{\"entries\":[");
        length = append_entry(json, sizeof json, length, &names, (widget_family_t)request->family, now);
        length = append(json, sizeof json, length, "]");
        if (request->request_kind == WIDGET_REQUEST_TIMELINE) {
            char policy[96];
            snprintf(policy, sizeof policy, ",\"policy\":{\"kind\":\"after\",\"date\":%ld}", now + 3600);
            length = append(json, sizeof json, length, policy);
        }
        length = append(json, sizeof json, length, "}");
        break;
    case WIDGET_REQUEST_PREVIEWS:
        /* What Xcode's canvas would show (ABI 1.5): a workstation and a server, and the inline form. */
        sample_names(&names, "workstation");
        length = append(json, sizeof json, length, "{\"previews\":[{\"name\":\"Workstation\",\"family\":\"systemSmall\",\"entries\":[");
        length = append_entry(json, sizeof json, length, &names, WIDGET_FAMILY_SYSTEM_SMALL, now);
        sample_names(&names, "build-server-07");
        length = append(json, sizeof json, length, ",");
        length = append_entry(json, sizeof json, length, &names, WIDGET_FAMILY_SYSTEM_SMALL, now);
        length = append(json, sizeof json, length, "]},{\"name\":\"Lock Screen\",\"family\":\"accessoryInline\",\"entries\":[");
        length = append_entry(json, sizeof json, length, &names, WIDGET_FAMILY_ACCESSORY_INLINE, now);
        length = append(json, sizeof json, length, "]}]}");
        break;
    default:
        /* A kind of a newer host: answered with an error, as the header asks. */
        fail(completion, context, "this bundle does not answer that request kind");
        return;
    }
    if (length < 0) {
        fail(completion, context, "result did not fit in its buffer");
        return;
    }
    widget_result_t result = {sizeof(widget_result_t), WIDGET_STATUS_OK, json, (size_t)length, NULL};
    completion(context, &result); /* the host copies `json` before this returns */
}

static const widget_bundle_t bundle = {
    .abi_version = WIDGET_ABI_VERSION_INIT,
    .struct_size = sizeof(widget_bundle_t),
    .name = "Host Info (C)",
    .built_with = "c",
    .initialize = initialize,
    .request = request,
    .shutdown = NULL,
    WIDGET_BUNDLE_METADATA("1.0.0", "the widgets project", NULL, NULL),
};

WIDGET_BUNDLE_EXPORT const widget_bundle_t *widget_bundle_entry(void) { return &bundle; }
