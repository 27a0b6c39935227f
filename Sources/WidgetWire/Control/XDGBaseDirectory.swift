import FoundationEssentials

/// The XDG base directories (data, state, cache, config): the variable when it holds an absolute path, else its
/// default under the home directory, as the specification says.
public enum XDGBaseDirectory {
    /// `$XDG_DATA_HOME`, else `~/.local/share`.
    public static func dataHome(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        path(environment, "XDG_DATA_HOME", default: ".local/share")
    }

    /// `$XDG_CACHE_HOME`, else `~/.cache`.
    public static func cacheHome(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        path(environment, "XDG_CACHE_HOME", default: ".cache")
    }

    /// `$XDG_STATE_HOME`, else `~/.local/state`.
    public static func stateHome(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        path(environment, "XDG_STATE_HOME", default: ".local/state")
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    public static func configHome(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        path(environment, "XDG_CONFIG_HOME", default: ".config")
    }

    static func path(_ environment: [String: String], _ variable: String, default relative: String) -> String {
        if let value = environment[variable], value.hasPrefix("/") { return value }
        return (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/" + relative
    }
}
