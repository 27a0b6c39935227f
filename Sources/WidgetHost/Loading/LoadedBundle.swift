import Foundation
import WidgetABI

/// What a bundle says of itself in its `widget_bundle_t`, as checked: the same whether the host
/// read it in this process or a worker reported it.
struct BundleDescription: Sendable, Equatable {
    /// The bundle's own name for itself (`widget_bundle_t.name`), or the file name.
    let name: String
    let builtWith: String?
    let abiVersion: ABIVersion
    /// The heap limit the bundle asks for its providers (ABI 1.1), nil for the host's.
    let memoryLimit: Int64?
    /// The URL schemes whose links the bundle opens (ABI 1.3), lowercase.
    let urlSchemes: [String]
}

/// A bundle the host loaded and accepted: what it says of itself, and the backend its providers run
/// in (this process, or a worker process). Bundles are never unloaded from a process: a Swift image
/// cannot be `dlclose`d safely, so a bundle loaded in process lives as long as the process.
public final class LoadedBundle: Sendable {
    /// The file, as found on the search path.
    public let path: String
    /// The file's name, for diagnostics.
    public let fileName: String
    let description: BundleDescription
    /// Where its providers run, and how requests reach them.
    let backend: any ProviderBackend

    init(path: String, description: BundleDescription, backend: any ProviderBackend) {
        self.path = path
        fileName = (path as NSString).lastPathComponent
        self.description = description
        self.backend = backend
    }

    /// The bundle's own name for itself (`widget_bundle_t.name`), or the file name.
    public var name: String { description.name }
    /// The toolchain that built it, as it says ("swift-6.3.1", "c").
    public var builtWith: String? { description.builtWith }
    public var abiVersion: ABIVersion { description.abiVersion }
    /// The heap limit the bundle asks for its providers (ABI 1.1), nil for the host's.
    public var requestedMemoryLimit: Int64? { description.memoryLimit }
    /// The URL schemes whose links the bundle opens (ABI 1.3), lowercase.
    public var urlSchemes: [String] { description.urlSchemes }

    /// The process id of the worker serving the bundle, while one runs (process isolation).
    public var workerProcessID: Int32? { backend.processID }
    /// Why the bundle is disabled, when its worker crashed too often (process isolation).
    public var disabledReason: String? { backend.disabledReason }
}
