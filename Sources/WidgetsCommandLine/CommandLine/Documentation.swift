import Foundation
import WidgetHost

/// Where a document named in help is: installed (`PREFIX/share/doc/widgets/NAME`, as `make install`
/// puts it), else in the checkout the running `widgets` was built in (`docs/NAME` above its build
/// directory), else just `docs/NAME`.
enum Documentation {
    static func path(_ name: String, executable: String = BundleSearchPath.runningExecutable) -> String {
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
