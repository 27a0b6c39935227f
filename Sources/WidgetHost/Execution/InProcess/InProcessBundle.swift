import CWidgetABI
import FoundationEssentials
import Glibc
import Synchronization
import WidgetABI
import WidgetSupport
import WidgetWire

/// A bundle opened in this process: its entry, checked before any of its functions is called, the
/// host struct it was given, and its request function.
///
/// Its pointers are the bundle's static struct and the host's own, neither written after `init`.
final class InProcessBundle: @unchecked Sendable {
    let path: String
    let fileName: String
    /// The path as C text, for the exit guard's report.
    let cPath: UnsafePointer<CChar>
    let description: BundleDescription
    private let entry: UnsafePointer<widget_bundle_t>
    private let initializeFunction: @convention(c) (UnsafePointer<widget_host_t>?, UnsafeMutablePointer<CChar>?, Int) -> Bool
    private let requestFunction: @convention(c) (UnsafePointer<widget_request_t>?, widget_completion_fn?, UnsafeMutableRawPointer?) -> Void
    private let host: UnsafeMutablePointer<widget_host_t>
    /// Takes the bundle's registrations; set only while `initialize` runs.
    private let registering = Mutex<(@Sendable (UnsafePointer<widget_descriptor_t>?) -> Bool)?>(nil)

    init(path: String, entry: UnsafePointer<widget_bundle_t>) throws(LoadProblem) {
        self.path = path
        self.entry = entry
        let fileName = path.pathFileName
        cPath = ExitGuard.name(path)
        self.fileName = fileName
        func refuse(_ reason: LoadProblem.Reason, _ message: String) -> LoadProblem {
            LoadProblem(path: path, reason: reason, message: message)
        }
        // The version and size come first and are read alone: nothing else of the struct is touched
        // (and no function of the bundle called) until they check out.
        let version = ABIVersion(UnsafeRawPointer(entry).load(as: widget_abi_version_t.self))
        if let refusal = ABIVersion.refusal(ofBundle: version) { throw refuse(.abiMismatch, refusal) }
        let size = ABISize.declared(bundle: entry)
        guard size >= ABISize.bundle else {
            throw refuse(.invalidBundle, "widget_bundle_t.struct_size \(size) is smaller than ABI 1.0's \(ABISize.bundle)")
        }
        // Fields of later minor versions are read only when the bundle's struct has them.
        let bundle = ABISize.copy(entry, declared: size, as: widget_bundle_t.self)
        guard let initialize = bundle.initialize, let request = bundle.request else {
            throw refuse(.invalidBundle, "widget_bundle_t lacks its initialize or request function")
        }
        initializeFunction = initialize
        requestFunction = request
        let builtWith = bundle.built_with.map { String(bundleText: $0) }
        if let builtWith, builtWith.hasPrefix("swift-"), builtWith != Toolchain.current {
            throw refuse(
                .toolchainMismatch,
                "built with \(builtWith), but this host was built with \(Toolchain.current); Swift has no stable ABI on Linux, rebuild the bundle with the host's compiler"
            )
        }
        description = BundleDescription(
            name: bundle.name.map { String(bundleText: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? fileName,
            builtWith: builtWith, abiVersion: version,
            memoryLimit: bundle.memory_limit > 0 ? Int64(clamping: bundle.memory_limit) : nil,
            urlSchemes: try Self.schemes(bundle.url_schemes, refuse: refuse),
            metadata: Self.metadata(bundle), identifier: Self.identifier(bundle), appGroups: try Self.groups(bundle.app_groups, refuse: refuse))
        // Placed with this host's own layout, never through generic code (see ABISize.copy).
        let host = UnsafeMutableRawPointer.allocate(
            byteCount: MemoryLayout<widget_host_t>.size, alignment: MemoryLayout<widget_host_t>.alignment
        ).bindMemory(to: widget_host_t.self, capacity: 1)
        self.host = host
        var hostValue = widget_host_t(
            abi_version: ABIVersion.current.c,
            struct_size: UInt32(MemoryLayout<widget_host_t>.size),
            host_data: nil,
            register_widget: { host, descriptor in
                guard let data = host?.pointee.host_data else { return false }
                return Unmanaged<InProcessBundle>.fromOpaque(data).takeUnretainedValue().register(descriptor)
            },
            log: { host, level, message in
                guard let data = host?.pointee.host_data else { return }
                let bundle = Unmanaged<InProcessBundle>.fromOpaque(data).takeUnretainedValue()
                let text = message.map { String(bundleText: $0) } ?? ""
                HostLog.log(LogLevel(BundleLogLevel(abiValue: level.rawValue)), "\(bundle.fileName): \(text)")
            },
            bundle_path: UnsafePointer(strdup(path)))
        withUnsafeMutablePointer(to: &hostValue) {
            UnsafeMutableRawPointer(host).copyMemory(from: $0, byteCount: MemoryLayout<widget_host_t>.size)
        }
        // The host struct lives as long as the bundle, which lives as long as the process.
        host.pointee.host_data = Unmanaged.passRetained(self).toOpaque()
    }

    /// The ABI 1.5 fields, each at most 200 characters with no control characters (a bundle's
    /// text is never trusted to be short or printable); NULL, as a copy leaves them for an older
    /// bundle, and empty text read nil.
    private static func metadata(_ bundle: widget_bundle_t) -> BundleMetadata {
        func text(_ pointer: UnsafePointer<CChar>?) -> String? {
            guard let pointer else { return nil }
            let text = String(bundleText: pointer).trimmingSpaces
            guard !text.isEmpty else { return nil }
            return text.count > 200 ? String(text.prefix(199)) + "…" : text
        }
        return BundleMetadata(version: text(bundle.version), vendor: text(bundle.vendor), license: text(bundle.license), homepage: text(bundle.homepage))
    }

    /// The ABI 1.6 identifier: at most 255 characters of letters, digits, `.`, `-` and `_`; nil otherwise.
    private static func identifier(_ bundle: widget_bundle_t) -> String? {
        guard let pointer = bundle.identifier else { return nil }
        let text = String(bundleText: pointer)
        guard !text.isEmpty, text.count <= 255, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._".contains($0)) }) else { return nil }
        return text
    }

    /// Reads the ABI 1.6 app groups (a NULL-terminated array): each a name a container directory
    /// can have (no `/`, not `.` or `..`, at most 255 characters).
    static func groups(
        _ array: UnsafePointer<UnsafePointer<CChar>?>?, refuse: (LoadProblem.Reason, String) -> LoadProblem
    ) throws(LoadProblem) -> [String] {
        guard let array else { return [] }
        var groups: [String] = []
        for index in 0..<65 {
            guard let pointer = array[index] else { return groups }
            guard index < 64 else { break }
            let group = String(bundleText: pointer)
            guard !group.isEmpty, group.count <= 255, group != ".", group != "..", !group.contains("/") else {
                throw refuse(.invalidBundle, "app_groups[\(index)] \"\(group.cut(to: 100))\" is not an app group name")
            }
            groups.append(group)
        }
        throw refuse(.invalidBundle, "app_groups has more than 64 entries (or lacks its NULL terminator)")
    }

    /// Reads a NULL-terminated array of URL schemes, checking each is one (RFC 3986: a letter, then
    /// letters, digits, `+`, `-` or `.`).
    static func schemes(
        _ array: UnsafePointer<UnsafePointer<CChar>?>?, refuse: (LoadProblem.Reason, String) -> LoadProblem
    ) throws(LoadProblem) -> [String] {
        guard let array else { return [] }
        var schemes: [String] = []
        for index in 0..<65 {
            guard let pointer = array[index] else { return schemes }
            guard index < 64 else { break }
            let scheme = String(bundleText: pointer)
            guard URLSchemes.isValid(scheme) else {
                throw refuse(.invalidBundle, "url_schemes[\(index)] \"\(scheme)\" is not a URL scheme (a letter, then letters, digits, +, - or .)")
            }
            schemes.append(scheme.lowercased())
        }
        throw refuse(.invalidBundle, "url_schemes has more than 64 entries (or lacks its NULL terminator)")
    }

    /// Calls the bundle's `initialize`; each `register_widget` it makes meanwhile goes to `register`,
    /// whose answer the bundle gets.
    func initialize(register: @escaping @Sendable (UnsafePointer<widget_descriptor_t>?) -> Bool) throws(LoadProblem) {
        registering.withLock { $0 = register }
        defer { registering.withLock { $0 = nil } }
        var error = [CChar](repeating: 0, count: 512)
        let succeeded = ExitGuard.during(cPath, .loading) { initializeFunction(host, &error, error.count) }
        guard succeeded else {
            error[error.count - 1] = 0
            let reason = error.withUnsafeBufferPointer { String(bundleText: $0.baseAddress!) }
            throw LoadProblem(
                path: path, reason: .initializationFailed,
                message: "initialization failed: \(reason.isEmpty ? "the bundle gave no reason" : reason)")
        }
    }

    private func register(_ pointer: UnsafePointer<widget_descriptor_t>?) -> Bool {
        guard let register = registering.withLock({ $0 }) else {
            HostLog.warning("\(fileName): register_widget called outside initialize; ignored")
            return false
        }
        return register(pointer)
    }

    /// Calls the bundle's request function on this thread.
    func request(_ request: UnsafePointer<widget_request_t>, _ completion: widget_completion_fn, _ context: UnsafeMutableRawPointer?) {
        requestFunction(request, completion, context)
    }
}

extension LogLevel {
    /// The host's level for a line a bundle logs through `widget_host_t.log`.
    init(_ level: BundleLogLevel) {
        switch level {
        case .debug: self = .debug
        case .info: self = .info
        case .warning: self = .warning
        case .error: self = .error
        }
    }
}
