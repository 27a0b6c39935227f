import Foundation
import Glibc

/// A home of a benchmark's own, under the temporary directory: a bundle directory (`plugins`, with
/// `bundles` of the release build copied in), and the environment whose XDG data, state, runtime and
/// cache directories lie in it, with no WIDGETS_PATH. `remove()` takes it away.
struct BenchHome {
    /// The release build's products, beside this executable.
    static let products = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    let directory: URL
    let plugins: URL
    var environment: [String: String]
    /// The release build's `widgets`.
    let widgets = products.appendingPathComponent("widgets").path

    init(_ label: String, bundles: [URL] = []) {
        directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("widgets-bench-\(label)-\(getpid())")
        plugins = directory.appendingPathComponent("widgets.d")
        try! FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        for source in bundles {
            let target = plugins.appendingPathComponent(source.lastPathComponent)
            try! FileManager.default.copyItem(at: source, to: target)
            chmod(target.path, 0o644)
        }
        environment = ProcessInfo.processInfo.environment
        for (name, place) in [("XDG_DATA_HOME", "data"), ("XDG_STATE_HOME", "state"), ("XDG_RUNTIME_DIR", "runtime"), ("XDG_CACHE_HOME", "cache")] {
            let path = directory.appendingPathComponent(place)
            try! FileManager.default.createDirectory(at: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            environment[name] = path.path
        }
        environment["WIDGETS_PATH"] = nil
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
