import CWidgetABI
import Foundation
import WidgetWire

/// Hands the host a widget bundle: the one line a bundle adds, in place of iOS's `@main`.
///
///     @c(widget_bundle_entry) public func widgetBundleEntry() -> UnsafeRawPointer {
///         exportWidgetBundle(GameWidgets.self)
///     }
///
/// The function must be public and named `widget_bundle_entry` in C. It returns a pointer to the
/// bundle's static `widget_bundle_t` (see widget_abi.h); the bundle's widgets are created when the
/// host initializes it, not before.
///
/// - Parameters:
///   - name: how the host names the bundle; the type's name by default.
///   - memoryLimit: the most heap, in bytes, each of the bundle's providers may hold; it can only
///     lower the host's limit (30 MB by default, as on iOS).
public func exportWidgetBundle<Bundle: WidgetBundle>(
    _ bundle: Bundle.Type, name: String? = nil, memoryLimit: Int? = nil
) -> UnsafeRawPointer {
    BundleExport.shared.export(name: name ?? String(describing: bundle), memoryLimit: memoryLimit) { Bundle().body._definitions() }
}

/// The bundle side of the ABI: one per shared object.
final class BundleExport: @unchecked Sendable {
    static let shared = BundleExport()

    private let lock = NSLock()
    private var entry: UnsafeMutablePointer<widget_bundle_t>?
    private var makeDefinitions: (() -> [_WidgetDefinition])?
    private var definitions: [String: _WidgetDefinition] = [:]

    func export(name: String, memoryLimit: Int?, definitions make: @escaping () -> [_WidgetDefinition]) -> UnsafeRawPointer {
        lock.withLock {
            if let entry { return UnsafeRawPointer(entry) }
            makeDefinitions = make
            let pointer = UnsafeMutablePointer<widget_bundle_t>.allocate(capacity: 1)
            pointer.initialize(
                to: widget_bundle_t(
                    abi_version: widget_abi_version_t(
                        major: UInt32(WIDGET_ABI_VERSION_MAJOR), minor: UInt32(WIDGET_ABI_VERSION_MINOR)),
                    struct_size: UInt32(MemoryLayout<widget_bundle_t>.size),
                    name: UnsafePointer(strdup(name)),
                    built_with: UnsafePointer(strdup(Toolchain.current)),
                    initialize: { host, error, capacity in
                        BundleExport.shared.initialize(host: host, error: error, capacity: capacity)
                    },
                    request: { request, completion, context in
                        BundleExport.shared.handle(request, completion: completion, context: context)
                    },
                    shutdown: nil,
                    memory_limit: UInt64(max(0, memoryLimit ?? 0))))
            entry = pointer
            return UnsafeRawPointer(pointer)
        }
    }

    private func initialize(host: UnsafePointer<widget_host_t>?, error: UnsafeMutablePointer<CChar>?, capacity: Int) -> Bool {
        func fail(_ message: String) -> Bool {
            if let error, capacity > 0 {
                let bytes = Array(message.utf8.prefix(capacity - 1))
                for (index, byte) in bytes.enumerated() { error[index] = CChar(bitPattern: byte) }
                error[bytes.count] = 0
            }
            return false
        }
        guard let host, let register = host.pointee.register_widget else { return fail("the host offers no register_widget") }
        guard let make = lock.withLock({ makeDefinitions }) else { return fail("no bundle was exported") }
        let all = make()
        var registered: [String: _WidgetDefinition] = [:]
        for definition in all {
            var descriptor = widget_descriptor_t()
            descriptor.struct_size = UInt32(MemoryLayout<widget_descriptor_t>.size)
            descriptor.families = WidgetFamily.mask(definition.families)
            descriptor.configuration_kind = definition.configurationKind.rawValue
            descriptor.flags = definition.contentMarginsDisabled ? UInt32(WIDGET_FLAG_CONTENT_MARGINS_DISABLED) : 0
            let schemaText = definition.schema.map(\.json.jsonText)
            let accepted = definition.kind.withCString { kind in
                definition.displayName.withCString { displayName in
                    definition.description.withCString { description in
                        withOptionalCString(definition.configurationName) { configurationName in
                            withOptionalCString(schemaText) { schema in
                                descriptor.kind = kind
                                descriptor.display_name = displayName
                                descriptor.description = description
                                descriptor.configuration_name = configurationName
                                descriptor.configuration_schema = schema
                                return register(host, &descriptor)
                            }
                        }
                    }
                }
            }
            // The host refuses duplicates and says why; the first registration of a kind is the one kept.
            if accepted, registered[definition.kind] == nil { registered[definition.kind] = definition }
        }
        lock.withLock { definitions = registered }
        return true
    }

    private func handle(
        _ request: UnsafePointer<widget_request_t>?, completion: widget_completion_fn?, context: UnsafeMutableRawPointer?
    ) {
        guard let completion else { return }
        let reply = Completion(function: completion, context: context)
        guard let request else { return reply.fail("no request") }
        let raw = request.pointee
        guard let kindPointer = raw.widget_kind else { return reply.fail("request names no widget kind") }
        let kind = String(cString: kindPointer)
        guard let definition = lock.withLock({ definitions[kind] }) else {
            return reply.fail("this bundle has no widget of kind \"\(kind)\"")
        }
        guard let family = WidgetFamily(abiValue: raw.family) else { return reply.fail("unknown family \(raw.family)") }
        let requestKind: ProviderRequest.Kind
        switch raw.request_kind {
        case UInt32(WIDGET_REQUEST_PLACEHOLDER.rawValue): requestKind = .placeholder
        case UInt32(WIDGET_REQUEST_SNAPSHOT.rawValue): requestKind = .snapshot
        case UInt32(WIDGET_REQUEST_TIMELINE.rawValue): requestKind = .timeline
        case UInt32(WIDGET_REQUEST_OPTIONS.rawValue): requestKind = .options
        case UInt32(WIDGET_REQUEST_RECOMMENDATIONS.rawValue): requestKind = .recommendations
        default: return reply.fail("unknown request kind \(raw.request_kind)")
        }
        var decoded = ProviderRequest(
            kind: requestKind, family: family, isPreview: raw.is_preview,
            displaySize: CGSize(width: raw.display_width, height: raw.display_height),
            configuration: raw.configuration.map { String(cString: $0) } ?? "{}")
        // ABI 1.2's field, read only when the host's request has it.
        if raw.struct_size >= UInt32(MemoryLayout<widget_request_t>.offset(of: \.parameter)! + MemoryLayout<UnsafeRawPointer>.size) {
            decoded.parameter = raw.parameter.map { String(cString: $0) }
        }
        definition.respond(decoded) { answer in
            switch answer {
            case .timeline(let timeline): reply.succeed(timeline.encoded())
            case .json(let value):
                var writer = JSONWriter()
                writer.write(value)
                reply.succeed(writer.bytes)
            case .failure(let message): reply.fail(message)
            }
        }
    }
}


/// The host's completion for one request. The ABI lets it be called from any thread.
private struct Completion: @unchecked Sendable {
    let function: widget_completion_fn
    let context: UnsafeMutableRawPointer?

    func succeed(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                var result = widget_result_t(
                    struct_size: UInt32(MemoryLayout<widget_result_t>.size), status: Int32(WIDGET_STATUS_OK.rawValue),
                    data: chars.baseAddress, length: chars.count, error_message: nil)
                function(context, &result)
            }
        }
    }

    func fail(_ message: String) {
        message.withCString { text in
            var result = widget_result_t(
                struct_size: UInt32(MemoryLayout<widget_result_t>.size), status: Int32(WIDGET_STATUS_ERROR.rawValue),
                data: nil, length: 0, error_message: text)
            function(context, &result)
        }
    }
}
