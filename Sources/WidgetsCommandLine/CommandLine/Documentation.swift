import FoundationEssentials
import WidgetHost

/// Where a document named in help is: `$WIDGETS_DOC_DIR/NAME` when set (`make install` sets it
/// while it writes the man page, which must name the installed place, not the checkout's),
/// installed (`PREFIX/share/doc/widgets/NAME`), else in the checkout the running `widgets` was
/// built in (`docs/NAME` above its build directory), else just `docs/NAME`.
enum Documentation {
    static func path(
        _ name: String, executable: String = BundleSearchPath.runningExecutable,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String {
        if let directory = environment["WIDGETS_DOC_DIR"], !directory.isEmpty { return directory + "/" + name }
        if let installed = BundleSearchPath.installedDocumentation(executable: executable) {
            let path = installed + "/" + name
            if FileManager.default.fileExists(atPath: path) { return path }
        }
        var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("docs/" + name).path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        return "docs/" + name
    }
}
