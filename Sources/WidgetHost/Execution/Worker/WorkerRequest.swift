import FoundationEssentials
import WidgetABI
import WidgetWire

/// A request for one provider, as the host sends it to the bundle's worker.
struct WorkerRequest: Sendable {
    var id: UInt64
    var kind: RequestKind
    /// The widget's kind.
    var widget: String
    var family: WidgetFamily
    var isPreview: Bool
    var environment: RenderingEnvironment
    /// The host's time when it sent the request, and the request's deadline on the host's clock.
    var now: Date
    var due: Date
    /// The parameter's name, the URL or the intent, for the request kinds that carry one.
    var parameter: String?
    /// The configuration, as the JSON the bundle reads.
    var configuration: [UInt8]
}

extension WorkerRequest {
    /// A call as sent at `now`, due by `due` on the host's clock; its id is the channel's to set.
    init(_ call: ProviderCall, now: Date, due: Date) {
        self.init(
            id: 0, kind: call.requestKind, widget: call.kind, family: call.family, isPreview: call.isPreview, environment: call.environment,
            now: now, due: due, parameter: call.argument, configuration: Array(call.configuration.utf8))
    }
}

/// A worker's answer to one request.
struct WorkerAnswer: Sendable {
    enum Outcome: Sendable {
        /// The bundle's bytes as it gave them.
        case result([UInt8])
        case error(RequestError.Reason, String)
    }

    var id: UInt64
    var outcome: Outcome
    /// The call is still inside the bundle after its deadline: only ending the worker takes it back.
    var stuck: Bool
    /// The provider's memory after the call (nil when the worker has no memory guard).
    var liveBytes: Int64?
    var peakBytes: Int64?
}
