import FoundationEssentials
import WidgetABI
import WidgetWire

/// One request for one provider: everything the ABI's `widget_request_t` carries, and how long the
/// provider has to answer. The registry makes it once; the backends and the worker protocol carry
/// it unchanged to the bundle.
struct ProviderCall: Sendable {
    let requestKind: RequestKind
    let widget: RegisteredWidget
    let family: WidgetFamily
    /// `TimelineProviderContext.isPreview`: always set for a placeholder.
    let isPreview: Bool
    /// The instance's configuration, as the JSON the bundle reads ("{}" when none).
    let configuration: String
    /// The request's one argument, in the field of its kind: the parameter's name (options), the
    /// URL (openURL) or the intent as its view recorded it (performIntent); nil for the others.
    let argument: String?
    /// What the entries' views are built for.
    let environment: RenderingEnvironment
    /// How long the provider has, from when the request is sent.
    let deadline: Duration

    init(
        _ requestKind: RequestKind, widget: RegisteredWidget, family: WidgetFamily, isPreview: Bool = false, configuration: String = "{}",
        argument: String? = nil, environment: RenderingEnvironment, deadline: Duration
    ) {
        self.requestKind = requestKind
        self.widget = widget
        self.family = family
        self.isPreview = isPreview || requestKind == .placeholder
        self.configuration = configuration
        self.argument = argument
        self.environment = environment
        self.deadline = deadline
    }

    /// The widget's kind.
    var kind: String { widget.kind }
    var bundlePath: String { widget.bundle.path }

    /// An error about this call, naming the widget and its bundle.
    func failure(_ reason: RequestError.Reason, _ message: String) -> RequestError {
        RequestError(kind: kind, bundlePath: bundlePath, reason: reason, message: message)
    }

    /// The call did not complete within its deadline.
    func timedOut() -> RequestError {
        .timedOut(requestKind, kind: kind, bundlePath: bundlePath, deadline: deadline)
    }
}
