import FoundationEssentials
import WidgetABI
import WidgetSupport
import WidgetWire

extension WidgetRegistry {
    /// Asks a widget's provider for a placeholder, snapshot, timeline, options, recommendations, a
    /// URL to open or an intent to perform, after the provider's earlier requests, and returns its
    /// validated answer. The provider has the registry's `deadlines` on its clock to answer. Entries'
    /// views are built for `environment`, by default the family's standard one
    /// (`RenderingEnvironment.standard(for:)`) in light. `parameter` is the request's one argument:
    /// the parameter's name, the URL or the intent. A kind not registered waits while bundles are
    /// still loading (each within its load deadline).
    public func request(
        _ requestKind: RequestKind, kind: String, family: WidgetFamily? = nil, isPreview: Bool = false,
        configuration: String = "{}", parameter: String? = nil, environment: RenderingEnvironment? = nil
    ) async throws(RequestError) -> ProviderResult {
        if registered(kind: kind) == nil { await loads(kind: kind) }
        let call = try self.call(
            requestKind, kind: kind, family: family, isPreview: isPreview, configuration: configuration, parameter: parameter,
            environment: environment)
        return try await call.widget.bundle.backend.request(call)
    }

    /// The call for a request, or why it cannot be made: an unknown kind or family, a request kind
    /// newer than the bundle's ABI, or a configuration request of a static widget.
    func call(
        _ requestKind: RequestKind, kind: String, family: WidgetFamily? = nil, isPreview: Bool = false,
        configuration: String = "{}", parameter: String? = nil, environment: RenderingEnvironment? = nil
    ) throws(RequestError) -> ProviderCall {
        let asked = family
        let (widget, family): (RegisteredWidget, WidgetFamily)
        switch requestKind {
        case .activity: (widget, family) = try apart(kind, as: .activity)
        case .control: (widget, family) = try apart(kind, as: .control)
        // A control's press is its action performed.
        case .performIntent where control(kind: kind) != nil: (widget, family) = try apart(kind, as: .control)
        default: (widget, family) = try self.widget(kind: kind, family: asked)
        }
        let version = widget.bundle.abiVersion
        // The host never sends a request kind newer than the bundle's minor version (widget_abi.h).
        if requestKind.introducedInMinor > version.minor {
            throw RequestError(
                kind: kind, bundlePath: widget.bundle.path, reason: .refused,
                message: "was built for ABI \(version), older than \(requestKind.rawValue) requests (ABI 1.\(requestKind.introducedInMinor)): it cannot be sent one")
        }
        if requestKind.needsConfiguration, widget.configuration == nil {
            throw RequestError(
                kind: kind, bundlePath: widget.bundle.path, reason: .notConfigurable,
                message: "has no configuration (it is a static widget), so no \(requestKind.rawValue)")
        }
        return ProviderCall(
            requestKind, widget: widget, family: family, isPreview: isPreview, configuration: configuration, argument: parameter,
            environment: environment ?? .standard(for: family), deadline: deadlines[requestKind])
    }

    /// What each provider has done so far: calls, failures, memory, time in calls.
    public func statistics(kind: String) -> ProviderStatistics? {
        guard let widget = widget(kind: kind) else { return nil }
        var statistics = widget.bundle.backend.statistics(kind: kind)
        statistics.memoryLimit = providerMemoryLimit(widget.bundle)
        return statistics
    }

    /// The same request on the calling thread, bypassing the provider's queue: for measuring the ABI
    /// alone. Not for hosts, which must keep a provider's calls on its queue.
    @_spi(Benchmarks) public func requestOnCallingThread(
        _ requestKind: RequestKind, kind: String, family: WidgetFamily? = nil
    ) throws(RequestError) -> ProviderResult {
        let call = try call(requestKind, kind: kind, family: family)
        guard let backend = call.widget.bundle.backend as? InProcessBackend else {
            throw call.failure(.refused, "runs in a worker process")
        }
        return try backend.requestHere(call)
    }

    /// The Live Activity (`configurationKind` .activity, `kind` its type) or the Control of `kind`,
    /// and the family it is drawn in, or why not: naming those there are, and a widget of that kind.
    func apart(_ kind: String, as configurationKind: ConfigurationKind) throws(RequestError) -> (RegisteredWidget, WidgetFamily) {
        if let found = registered(kind: kind), found.configurationKind == configurationKind { return (found, found.families[0]) }
        let (noun, plural) = configurationKind == .activity ? ("Live Activity", "Live Activities") : ("Control", "Controls")
        let known = registrations.filter { $0.configurationKind == configurationKind }.map(\.kind)
        let listed = known.isEmpty ? "no bundle loaded has a \(noun)" : "\(plural): \(known.joined(separator: ", "))"
        let widget = self.widget(kind: kind).map { _ in "; \"\(kind)\" is a widget, not a \(noun)" } ?? ""
        throw RequestError(
            kind: kind, bundlePath: nil, reason: .unknownKind,
            message: "no bundle loaded has this \(noun)\(Suggestion.hint(for: kind, among: known))\(widget); \(listed)")
    }

    /// The widget of `kind` and the family to ask for (`family`, else the widget's first), or why not:
    /// no such kind (naming the known ones), or a family it does not support (naming those it does).
    public func widget(kind: String, family: WidgetFamily?) throws(RequestError) -> (RegisteredWidget, WidgetFamily) {
        guard let widget = widget(kind: kind) else {
            let known = widgets.map(\.kind)
            let hint = known.isEmpty ? "no widgets are loaded" : "known kinds: \(known.joined(separator: ", "))"
            throw RequestError(
                kind: kind, bundlePath: nil, reason: .unknownKind,
                message: "no such widget kind\(Suggestion.hint(for: kind, among: known)); \(hint)")
        }
        let family = family ?? widget.families[0]
        guard widget.families.contains(family) else {
            throw RequestError(
                kind: kind, bundlePath: widget.bundle.path, reason: .unsupportedFamily,
                message: "does not support \(family); it supports \(widget.families.map(String.init(describing:)).joined(separator: ", "))")
        }
        return (widget, family)
    }
}
