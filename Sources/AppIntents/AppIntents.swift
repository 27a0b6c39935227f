// iOS intent files begin with `import AppIntents`. Here App Intents' names (`AppIntent`, `AppEntity`,
// `AppEnum`, `@Parameter`, `EntityQuery`...) live in WidgetKit; this module lets those files compile
// unchanged.
@_exported import WidgetKit
