import FoundationEssentials
import Glibc
import WidgetSupport
import WidgetWire

/// Where the host looks for bundles, in order.
///
/// - `--plugins DIR` alone, when given;
/// - else the directories of `WIDGETS_PATH` (colon-separated, like `PATH`), when set and not empty;
/// - else the `widgets.d/` of the current project (the nearest directory at or above the working
///   directory that has one), then `$XDG_DATA_HOME/widgets/widgets.d` (`~/.local/share/...`), then
///   the installation's own, `PREFIX/lib/widgets/widgets.d` beside `PREFIX/bin/widgets` (`make install`).
public enum BundleSearchPath {
    public static func resolve(
        plugins: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        currentDirectory: String = FileManager.default.currentDirectoryPath,
        executable: String = BundleSearchPath.runningExecutable
    ) -> [String] {
        if let plugins { return [absolute(plugins, in: currentDirectory)] }
        if let list = environment["WIDGETS_PATH"], !list.isEmpty {
            return list.split(separator: ":").map { absolute(String($0), in: currentDirectory) }
        }
        var directories: [String] = []
        var directory = URL(fileURLWithPath: currentDirectory).standardizedFileURL
        while true {
            let candidate = directory.appendingPathComponent("widgets.d").path
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                directories.append(candidate)
                break
            }
            let parent = directory.deletingLastPathComponent()
            if parent.path == directory.path { break }
            directory = parent
        }
        directories.append(XDGBaseDirectory.dataHome(environment) + "/widgets/widgets.d")
        if let installed = installedDirectory(executable: executable), !directories.contains(installed) { directories.append(installed) }
        return directories
    }

    /// Whether a directory entry's name is a bundle the host loads: a shared object (`NAME.so`) or a
    /// bundle with resources (`NAME.widgetbundle`). Hidden names are where an installer writes
    /// before renaming into place, and are never bundles.
    public static func isBundleName(_ name: String) -> Bool {
        !name.hasPrefix(".") && (name.hasSuffix(".so") || ResourceBundleLayout.isBundleDirectory(name))
    }

    /// The executable running, its symlinks resolved.
    public static var runningExecutable: String { SwiftRuntime.executable }

    /// The bundles installed with an executable in `PREFIX/bin` (`widgets`) or in `PREFIX/lib/widgets`
    /// (`widgets-worker`, running a command for it): `PREFIX/lib/widgets/widgets.d`. Nil for one in
    /// neither (a build in a checkout).
    public static func installedDirectory(executable: String) -> String? {
        installationLibrary(executable: executable).map { $0 + "/widgets.d" }
    }

    /// `PREFIX/share/doc/widgets`, where `make install` puts the documentation, for an executable
    /// installed in `PREFIX/bin` or `PREFIX/lib/widgets`; nil for one elsewhere.
    public static func installedDocumentation(executable: String) -> String? {
        installationLibrary(executable: executable).map { $0.pathDirectory.pathDirectory + "/share/doc/widgets" }
    }

    /// `PREFIX/lib/widgets` of an executable installed in `PREFIX/bin` or in that directory itself
    /// (`make install`'s layout); nil for one elsewhere.
    static func installationLibrary(executable: String) -> String? {
        let directory = executable.pathDirectory
        let parent = directory.pathDirectory
        if directory.pathFileName == "widgets", parent.pathFileName == "lib" { return directory }
        guard directory.pathFileName == "bin" else { return nil }
        return (parent == "/" ? "" : parent) + "/lib/widgets"
    }

    package static func absolute(_ path: String, in directory: String) -> String {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(fileURLWithPath: directory).appendingPathComponent(path)
        return url.standardizedFileURL.path
    }
}
