/* What the SDK needs of C in each bundle it is built into. */
#ifndef WIDGETKIT_SUPPORT_H
#define WIDGETKIT_SUPPORT_H

/* Calls every preview registration the `#Preview` macro exported from this bundle (functions named
 * `widgetkit_preview_...`), by file and line; each registers its preview with the SDK. Returns how
 * many it called. */
int widgetkit_register_previews(void);

/* Writes every UserDefaults suite's changes and forgets them, so the next read sees what other
 * processes wrote (shared_defaults.c). Does nothing where Foundation cannot. */
void widgetkit_synchronize_defaults(void);

/* Whether this Foundation can share UserDefaults suites between processes. */
_Bool widgetkit_defaults_shared(void);

/* The path of the shared object this code is in (the bundle's), its links and the host's
 * /proc/self/fd/N resolved; NULL when unknown. The caller frees it. */
char *widgetkit_image_path(void);

/* Fills `types` with the metadata of this bundle's types that conform to `PreviewProvider` (at most
 * `capacity`); returns how many. Not named widgetkit_preview_*: that prefix is the #Preview
 * registrations', every exported function bearing it is called as one. */
int widgetkit_find_preview_providers(const void **types, int capacity);

#endif
