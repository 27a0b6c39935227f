import CWidgetABI
import CWidgetKit
import Foundation
import WidgetABI
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
///   - name: how the host names the bundle; by default the host names it by its file (a Swift type's
///     name says nothing to the person reading a listing).
///   - memoryLimit: the most heap, in bytes, each of the bundle's providers may hold; it can only
///     lower the host's limit (30 MB by default, as on iOS).
///   - urlSchemes: the schemes of the deep links `onOpenURL` opens (`["mygame"]`): `widgets open URL`
///     sends a URL of such a scheme to this bundle.
///   - version, vendor, license, homepage: what `widgets list` shows of the bundle: its version
///     ("1.2.0"), who makes it, its licence (an SPDX identifier), a web page. Each optional.
///   - identifier, appGroups: whose the bundle is: its identifier ("org.example.app.widgets") and the
///     app groups it shares with its app. An app's `WidgetCenter.reloadAllTimelines()` reloads the
///     widgets of bundles whose identifier starts with the app's, or that share a group with it.
///     A bundle built by `widgets build` has them from its Info.plist and entitlements.
///   - onOpenURL: the counterpart of the app's `onOpenURL`: called with a `widgetURL` or `Link`
///     destination tapped in one of the bundle's widgets, or a URL of its schemes opened with
///     `widgets open`, on that widget's provider queue. Typically it opens the app at that place.
///     Throwing reports the failure to whoever tapped.
public func exportWidgetBundle<Bundle: WidgetBundle>(
    _ bundle: Bundle.Type, name: String? = nil, version: String? = nil, vendor: String? = nil, license: String? = nil,
    homepage: String? = nil, memoryLimit: Int? = nil, urlSchemes: [String] = [], identifier: String? = nil, appGroups: [String] = [],
    onOpenURL: (@Sendable (URL) async throws -> Void)? = nil
) -> UnsafeRawPointer {
    BundleExport.shared.export(
        name: name ?? "", metadata: [version, vendor, license, homepage], memoryLimit: memoryLimit,
        urlSchemes: urlSchemes, identifier: identifier, appGroups: appGroups, onOpenURL: onOpenURL
    ) { Bundle().body._definitions() }
}

/// The bundle side of the ABI: one per shared object.
final class BundleExport: @unchecked Sendable {
    static let shared = BundleExport()

    private let lock = NSLock()
    private var entry: UnsafeMutablePointer<widget_bundle_t>?
    private var makeDefinitions: (() -> [_WidgetDefinition])?
    private var definitions: [String: _WidgetDefinition] = [:]
    private var urlHandler: (@Sendable (URL) async throws -> Void)?

    /// The kinds the bundle registered, in order.
    var registeredKinds: [String] { lock.withLock { Array(definitions.keys).sorted() } }

    /// The bundle exported so far, if it was.
    var exportedEntry: UnsafePointer<widget_bundle_t>? { lock.withLock { entry.map { UnsafePointer($0) } } }

    /// `metadata`: the version, vendor, licence and homepage, in that order (ABI 1.5).
    func export(
        name: String, metadata: [String?] = [nil, nil, nil, nil], memoryLimit: Int?, urlSchemes: [String] = [], identifier: String? = nil,
        appGroups: [String] = [], onOpenURL: (@Sendable (URL) async throws -> Void)? = nil,
        definitions make: @escaping () -> [_WidgetDefinition]
    ) -> UnsafeRawPointer {
        // What a bundle with resources says of itself in its Info.plist and entitlements, where the
        // export line does not say it: its identifier, its groups, the URL schemes it claims.
        let declared = BundleResources.shared.declaration
        let identifier = identifier ?? declared.identifier
        let appGroups = appGroups.isEmpty ? declared.appGroups : appGroups
        let urlSchemes = urlSchemes + declared.urlSchemes.filter { !urlSchemes.contains($0) }
        return lock.withLock {
            if let entry { return UnsafeRawPointer(entry) }
            makeDefinitions = make
            urlHandler = onOpenURL
            let schemes = Self.keptList(urlSchemes.map { $0.lowercased() })
            // Placed with this SDK's own layout, never through generic code: Swift's metadata for a C
            // struct is shared by name across the images of a process, so an older bundle loaded
            // beside this one could make `UnsafeMutablePointer<widget_bundle_t>` copy its smaller size.
            let pointer = UnsafeMutableRawPointer.allocate(
                byteCount: MemoryLayout<widget_bundle_t>.size, alignment: MemoryLayout<widget_bundle_t>.alignment
            ).bindMemory(to: widget_bundle_t.self, capacity: 1)
            var value = widget_bundle_t(
                    abi_version: ABIVersion.current.c,
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
                    memory_limit: UInt64(max(0, memoryLimit ?? 0)),
                    url_schemes: schemes,
                    version: Self.kept(metadata[0]), vendor: Self.kept(metadata[1]), license: Self.kept(metadata[2]),
                    homepage: Self.kept(metadata[3]), identifier: Self.kept(identifier), app_groups: Self.keptList(appGroups))
            withUnsafeMutablePointer(to: &value) {
                UnsafeMutableRawPointer(pointer).copyMemory(from: $0, byteCount: MemoryLayout<widget_bundle_t>.size)
            }
            entry = pointer
            return UnsafeRawPointer(pointer)
        }
    }

    /// A C copy of `text` kept for the life of the process, as the ABI asks; NULL for none.
    private static func kept(_ text: String?) -> UnsafePointer<CChar>? {
        text.map { UnsafePointer(strdup($0)) }
    }

    /// A NULL-terminated array of C strings, kept for the life of the process, as the ABI asks.
    private static func keptList(_ texts: [String]) -> UnsafePointer<UnsafePointer<CChar>?> {
        let list = UnsafeMutablePointer<UnsafePointer<CChar>?>.allocate(capacity: texts.count + 1)
        for (index, text) in texts.enumerated() { list[index] = UnsafePointer(strdup(text)) }
        list[texts.count] = nil
        return UnsafePointer(list)
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
        guard let host else { return fail("the host offers no widget_host_t") }
        // Read field by field, within the host's own struct_size: an older host's struct is shorter.
        let hostSize = ABISize.declared(UnsafeRawPointer(host).advanced(by: MemoryLayout<widget_host_t>.offset(of: \.struct_size)!))
        guard let register = UnsafeRawPointer(host).load(fromByteOffset: MemoryLayout<widget_host_t>.offset(of: \.register_widget)!, as: (@convention(c) (UnsafePointer<widget_host_t>?, UnsafePointer<widget_descriptor_t>?) -> Bool)?.self)
        else { return fail("the host offers no register_widget") }
        if hostSize >= ABISize.host(forMinor: 6),
            let path = UnsafeRawPointer(host).load(fromByteOffset: MemoryLayout<widget_host_t>.offset(of: \.bundle_path)!, as: UnsafePointer<CChar>?.self)
        {
            BundleResources.shared.setBundlePath(String(cString: path))
        }
        guard let make = lock.withLock({ makeDefinitions }) else { return fail("no bundle was exported") }
        if !widgetkit_defaults_shared() {
            FileHandle.standardError.write(
                Data(("widgets: warning: this Foundation cannot share UserDefaults(suiteName:) between processes: an app's writes "
                    + "reach this bundle's widgets only through SharedDefaults (docs/PORTING.md)\n").utf8))
        }
        let all = make()
        var registered: [String: _WidgetDefinition] = [:]
        for definition in all {
            var descriptor = widget_descriptor_t()
            descriptor.struct_size = UInt32(MemoryLayout<widget_descriptor_t>.size)
            descriptor.families = WidgetFamily.mask(definition.families)
            descriptor.configuration_kind = definition.configurationKind.abiValue
            // The raw value, not `[]`: an option set's empty literal goes through SetAlgebra's generic
            // initializer, whose types the runtime looks up the first time in each worker.
            descriptor.flags = definition.contentMarginsDisabled ? DescriptorFlags.contentMarginsDisabled.rawValue : 0
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
        // What the app (or another widget's process) wrote to a shared UserDefaults suite since.
        widgetkit_synchronize_defaults()
        let raw = request.pointee
        guard let kindPointer = raw.widget_kind else { return reply.fail("request names no widget kind") }
        let kind = String(cString: kindPointer)
        guard let definition = lock.withLock({ definitions[kind] }) else {
            return reply.fail("this bundle has no widget of kind \"\(kind)\"")
        }
        guard let family = WidgetFamily(abiValue: raw.family) else { return reply.fail("unknown family \(raw.family)") }
        // A kind this SDK does not know (a newer host's) is answered with an error, as the header asks.
        guard let requestKind = RequestKind(abiValue: raw.request_kind) else {
            return reply.fail("unknown request kind \(raw.request_kind)")
        }
        if requestKind == .openURL || requestKind == .performIntent {
            return interact(raw, requestKind, definition: definition, family: family, reply: reply)
        }
        if requestKind == .previews { return previews(raw, kind: kind, reply: reply) }
        var decoded = ProviderRequest(
            kind: requestKind, family: family, isPreview: raw.is_preview,
            displaySize: CGSize(width: raw.display_width, height: raw.display_height),
            configuration: raw.configuration.map { String(cString: $0) } ?? "{}")
        // ABI 1.2's field, read only when the host's request has it.
        if Int(raw.struct_size) >= ABISize.request(forMinor: 2) {
            decoded.parameter = raw.parameter.map { String(cString: $0) }
        }
        decoded.read(environmentOf: raw)
        decoded.contentMarginsDisabled = definition.contentMarginsDisabled
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


extension BundleExport {
    /// A tap: a URL for the bundle's handler, or an intent to perform, on the calling thread (the
    /// widget's provider queue) for as long as it runs there.
    private func interact(
        _ raw: widget_request_t, _ requestKind: RequestKind, definition: _WidgetDefinition, family: WidgetFamily, reply: Completion
    ) {
        // ABI 1.3's fields, read only when the host's request has them.
        let covers = Int(raw.struct_size) >= ABISize.request(forMinor: 3)
        if requestKind == .openURL {
            guard covers, let text = raw.url.map({ String(cString: $0) }) else { return reply.fail("the request carries no URL") }
            guard let url = URL(string: text), url.scheme != nil else { return reply.fail("\"\(text)\" is not a URL") }
            if let handler = lock.withLock({ urlHandler }) {
                return answer(reply, ("opened", .string(text)), failing: "opening \(text) failed") { try await handler(url) }
            }
            // Else the app's views' own `.onOpenURL`, as a widget that shares views with its app has it.
            if ViewURLHandler.current == nil { buildViews(raw, definition: definition, family: family) }
            guard let handler = ViewURLHandler.current.map(_UncheckedSendable.init) else {
                return reply.fail("this bundle opens no URLs (it passes no onOpenURL to exportWidgetBundle, and no view has .onOpenURL)")
            }
            return answer(reply, ("opened", .string(text)), failing: "opening \(text) failed") { handler.value(url) }
        }
        guard covers, let text = raw.intent.map({ String(cString: $0) }) else { return reply.fail("the request carries no intent") }
        guard let intent = try? JSONValue.parse(text), let type = intent["type"]?.stringValue else {
            return reply.fail("the intent is not {\"type\": ..., \"parameters\": {...}}: \(text)")
        }
        let parameters = (intent["parameters"] ?? .object(JSONObject())).jsonText
        var performer = IntentTypes.performer(type)
        if performer == nil {
            buildViews(raw, definition: definition, family: family)
            performer = IntentTypes.performer(type)
        }
        guard let performer else {
            return reply.fail("no view of this widget uses the intent \(type); it cannot be performed here")
        }
        answer(reply, ("performed", .string(type)), failing: "\(type).perform() failed") { try await performer(parameters) }
    }

    /// Builds the widget's placeholder views, for what they register: a fresh process (a restarted
    /// worker) has not built them yet, and the placeholder shows the same controls (their intents)
    /// and the same `.onOpenURL`.
    private func buildViews(_ raw: widget_request_t, definition: _WidgetDefinition, family: WidgetFamily) {
        var request = ProviderRequest(
            kind: .placeholder, family: family, isPreview: true, displaySize: CGSize(width: raw.display_width, height: raw.display_height),
            configuration: raw.configuration.map { String(cString: $0) } ?? "{}")
        request.read(environmentOf: raw)
        definition.respond(request) { _ in }
    }

    /// The widget's `#Preview`s, each drawn in its own family with the request's appearance: the
    /// entries its timeline lists, or its provider gives, through the widget's content closure.
    private func previews(_ raw: widget_request_t, kind: String, reply: Completion) {
        let configuration = raw.configuration.map { String(cString: $0) } ?? "{}"
        var environment = ProviderRequest(
            kind: .previews, family: .systemSmall, isPreview: true, displaySize: CGSize(width: raw.display_width, height: raw.display_height),
            configuration: configuration)
        environment.read(environmentOf: raw)
        let base = environment
        let marginsDisabled = lock.withLock { definitions[kind]?.contentMarginsDisabled ?? false }
        runOnCallingThread {
            var previews: [WirePreview] = []
            for preview in _WidgetPreviews.all where preview.kind == kind {
                var request = ProviderRequest(
                    kind: .snapshot, family: preview.family, isPreview: true,
                    displaySize: CGSize(width: preview.family.displaySize.width, height: preview.family.displaySize.height),
                    configuration: base.configuration)
                // The request's appearance, and each family's own place: a Lock Screen family is
                // drawn vibrant, with no container background.
                request.colorScheme = base.colorScheme
                request.renderingMode = preview.family.isAccessory && base.renderingMode == .fullColor ? .vibrant : base.renderingMode
                request.showsContainerBackground = !preview.family.isAccessory
                request.contentMarginsDisabled = marginsDisabled
                let entries = await preview.entries(request)
                guard !entries.isEmpty else { continue }
                previews.append(WirePreview(name: preview.name, family: preview.family, entries: Array(entries.prefix(WirePreview.maximumEntries))))
            }
            var writer = JSONWriter()
            writer.write(WirePreview.json(Array(previews.prefix(WirePreview.maximumCount))))
            reply.succeed(writer.bytes)
        }
    }

    /// Runs a tap's work on the calling thread (while it has work there), then answers with
    /// `{key: value}`, or with `failing` and the error.
    private func answer(
        _ reply: Completion, _ member: (key: String, value: JSONValue), failing: String, _ work: @escaping @Sendable () async throws -> Void
    ) {
        runOnCallingThread {
            do {
                try await work()
                reply.succeed(Array(JSONValue.object(JSONObject([member])).jsonText.utf8))
            } catch {
                reply.fail("\(failing): \(error)")
            }
        }
    }
}

/// The host's completion for one request. The ABI lets it be called from any thread.
private struct Completion: @unchecked Sendable {
    let function: widget_completion_fn
    let context: UnsafeMutableRawPointer?

    func succeed(_ bytes: [UInt8]) {
        // What the call wrote to a shared UserDefaults suite, for the app and the next process.
        widgetkit_synchronize_defaults()
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                var result = widget_result_t(
                    struct_size: UInt32(MemoryLayout<widget_result_t>.size), status: ResultStatus.ok.abiValue,
                    data: chars.baseAddress, length: chars.count, error_message: nil)
                function(context, &result)
            }
        }
    }

    func fail(_ message: String) {
        widgetkit_synchronize_defaults()
        message.withCString { text in
            var result = widget_result_t(
                struct_size: UInt32(MemoryLayout<widget_result_t>.size), status: ResultStatus.error.abiValue,
                data: nil, length: 0, error_message: text)
            function(context, &result)
        }
    }
}

extension ProviderRequest {
    /// ABI 1.4's environment, read only when the host's request has it.
    mutating func read(environmentOf raw: widget_request_t) {
        guard Int(raw.struct_size) >= ABISize.request(forMinor: 4) else { return }
        let environment = RenderingEnvironment(
            abiColorScheme: raw.color_scheme, abiRenderingMode: raw.rendering_mode, showsContainerBackground: raw.shows_container_background)
        colorScheme = ColorScheme(environment.colorScheme)
        renderingMode = WidgetRenderingMode(environment.renderingMode)
        showsContainerBackground = environment.showsContainerBackground
    }
}
