/// How the CLI prints registries, provider results, statistics and instances, for people and as
/// JSON: one extension per subject, in the files beside this one.
enum Render {}
