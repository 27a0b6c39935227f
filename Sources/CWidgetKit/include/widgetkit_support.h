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

#endif
