import CWidgetABI
import Foundation
import WidgetWire

/// What the host asks a provider for.
public enum RequestKind: String, CaseIterable, Sendable {
    case placeholder
    case snapshot
    case timeline
    /// The choices for one parameter of a configurable widget (ABI 1.2).
    case options
    /// A configurable widget's preconfigured instances (ABI 1.2).
    case recommendations
    /// A deep link for the bundle's URL handler, its `onOpenURL` (ABI 1.3). The request's argument
    /// is the URL.
    case openURL
    /// An intent to perform, from a `Button(intent:)` or `Toggle` (ABI 1.3). The request's argument
    /// is the intent as its view recorded it.
    case performIntent

    var abiValue: UInt32 {
        switch self {
        case .placeholder: UInt32(WIDGET_REQUEST_PLACEHOLDER.rawValue)
        case .snapshot: UInt32(WIDGET_REQUEST_SNAPSHOT.rawValue)
        case .timeline: UInt32(WIDGET_REQUEST_TIMELINE.rawValue)
        case .options: UInt32(WIDGET_REQUEST_OPTIONS.rawValue)
        case .recommendations: UInt32(WIDGET_REQUEST_RECOMMENDATIONS.rawValue)
        case .openURL: UInt32(WIDGET_REQUEST_OPEN_URL.rawValue)
        case .performIntent: UInt32(WIDGET_REQUEST_PERFORM_INTENT.rawValue)
        }
    }

    init?(abiValue: UInt32) {
        guard let kind = Self.allCases.first(where: { $0.abiValue == abiValue }) else { return nil }
        self = kind
    }

    /// Whether only configurable widgets answer it.
    var needsConfiguration: Bool { self == .options || self == .recommendations }

    /// Whether the answer is entries (and a policy), rather than configuration data.
    public var answersWithEntries: Bool {
        switch self {
        case .placeholder, .snapshot, .timeline: true
        case .options, .recommendations, .openURL, .performIntent: false
        }
    }
}

/// How long the host waits for each kind of answer. Placeholders and snapshots must be quick (the
/// system shows them while the user waits); a timeline may fetch data.
public struct RequestDeadlines: Sendable, Equatable {
    public var placeholder: Duration
    public var snapshot: Duration
    public var timeline: Duration

    public static let `default` = RequestDeadlines(placeholder: .seconds(2), snapshot: .seconds(5), timeline: .seconds(15))

    public init(placeholder: Duration, snapshot: Duration, timeline: Duration) {
        self.placeholder = placeholder
        self.snapshot = snapshot
        self.timeline = timeline
    }

    public subscript(kind: RequestKind) -> Duration {
        switch kind {
        case .placeholder: placeholder
        // What a configuration screen shows while the user waits, as a snapshot is.
        case .snapshot, .options, .recommendations: snapshot
        // Work done for a tap may fetch data, as a timeline may.
        case .timeline, .openURL, .performIntent: timeline
        }
    }
}

/// Why a request produced no usable result. Prints as one line naming the widget and its bundle.
public struct RequestError: Error, Sendable, CustomStringConvertible {
    public enum Reason: String, Sendable {
        case unknownKind
        case unsupportedFamily
        case providerFailed
        case timedOut
        case memoryLimitExceeded
        /// Not sent: the provider is quarantined or stuck inside an earlier call.
        case refused
        /// Its worker process crashed, hung and was killed, or is disabled (process isolation).
        case crashed
        case malformedResult
        case invalidResult
        /// Options or recommendations of a widget that has no configuration.
        case notConfigurable
    }

    public let kind: String
    public let bundlePath: String?
    public let reason: Reason
    public let message: String

    public var description: String {
        let bundle = bundlePath.map { " (\(($0 as NSString).lastPathComponent))" } ?? ""
        return "widget \"\(kind)\"\(bundle): \(message)"
    }

    static func timedOut(_ requestKind: RequestKind, kind: String, bundlePath: String, deadline: Duration) -> RequestError {
        RequestError(
            kind: kind, bundlePath: bundlePath, reason: .timedOut, message: "\(requestKind.rawValue) did not complete within \(deadline)")
    }
}

/// A validated answer: dates in order, a well-formed policy for timelines.
public struct ProviderResult: Sendable {
    public let kind: String
    public let requestKind: RequestKind
    public let family: WidgetFamily
    public let entries: [WireEntry]
    /// Present for timelines.
    public let policy: WireReloadPolicy?
    /// What the host corrected and the author should know (e.g. entries sorted by date).
    public let notes: [String]
    /// For options and recommendations: the answer, checked to be a JSON object (no entries).
    public let payload: JSONValue?

    init(
        kind: String, requestKind: RequestKind, family: WidgetFamily, entries: [WireEntry], policy: WireReloadPolicy?,
        notes: [String], payload: JSONValue? = nil
    ) {
        self.kind = kind
        self.requestKind = requestKind
        self.family = family
        self.entries = entries
        self.policy = policy
        self.notes = notes
        self.payload = payload
    }

    /// The entry shown at `date`: the latest whose date has come, else (all are later) the first.
    /// Validation guarantees at least one entry.
    public func entry(at date: Date) -> WireEntry {
        entries.last { $0.date <= date.timeIntervalSince1970 } ?? entries[0]
    }
}

extension WidgetRegistry {
    /// Asks a widget's provider for a placeholder, snapshot or timeline, on the provider's own queue
    /// after its earlier requests, and returns its validated answer. The provider has `deadlines` of
    /// the registry's clock to answer. Entries' views are built for `environment`, by default the
    /// family's standard one (`RenderingEnvironment.standard(for:)`) in light.
    public func request(
        _ requestKind: RequestKind, kind: String, family: WidgetFamily? = nil, isPreview: Bool = false,
        configuration: String = "{}", parameter: String? = nil, environment: RenderingEnvironment? = nil
    ) async throws(RequestError) -> ProviderResult {
        let (widget, family) = try widget(kind: kind, family: family)
        let environment = environment ?? .standard(for: family)
        if requestKind == .openURL || requestKind == .performIntent, widget.bundle.abiVersion.minor < 3 {
            throw RequestError(
                kind: kind, bundlePath: widget.bundle.path, reason: .refused,
                message: "was built for ABI \(widget.bundle.abiVersion.major).\(widget.bundle.abiVersion.minor), before taps (ABI 1.3): it cannot open URLs or perform intents")
        }
        if requestKind.needsConfiguration, widget.configuration == nil {
            throw RequestError(
                kind: kind, bundlePath: widget.bundle.path, reason: .notConfigurable,
                message: "has no configuration (it is a static widget), so no \(requestKind.rawValue)")
        }
        if let worker = widget.bundle.worker {
            return try await worker.request(
                requestKind, widget: widget, family: family, isPreview: isPreview, configuration: configuration, parameter: parameter, environment: environment,
                deadline: deadlines[requestKind])
        }
        // The queue delivers each request's result exactly once (the answer or the deadline, by its
        // ticket), so the continuation need not be a checked one.
        let result: Result<ProviderResult, RequestError> = await withUnsafeContinuation { continuation in
            submitInProcess(
                requestKind, widget: widget, family: family, isPreview: isPreview, configuration: configuration, parameter: parameter, environment: environment,
                due: nil, completion: { continuation.resume(returning: $0) })
        }
        return try result.get()
    }

    /// A worker serving its host's request: the provider's answer as it gave it, through
    /// `completion` on the provider's queue (or the deadline's timer), by the host's deadline `due`.
    /// When the provider's queue is idle the call runs on the calling thread (the queue held
    /// meanwhile), and this returns after it; a worker's reader loses the reading when the call is
    /// slow. The answer's bytes are not decoded here: the host checks them, as it checks any bundle's
    /// answer, so a worker passes them on without decoding and encoding them again. A failed or
    /// malformed answer fails here, with the error the host's check would give. `completion` also
    /// gets the provider's statistics as the call left them, for the host.
    func submitForHost(
        _ requestKind: RequestKind, kind: String, family: WidgetFamily, isPreview: Bool, configuration: String, parameter: String?,
        environment: RenderingEnvironment, due: Date,
        completion: @escaping @Sendable (Result<[UInt8], RequestError>, ProviderStatistics?) -> Void
    ) {
        let widget: RegisteredWidget
        let chosenFamily: WidgetFamily
        do throws(RequestError) {
            (widget, chosenFamily) = try self.widget(kind: kind, family: family)
        } catch {
            return completion(.failure(error), nil)
        }
        let queue = providerQueue(kind: kind)
        submitInProcess(
            requestKind, widget: widget, family: chosenFamily, isPreview: isPreview, configuration: configuration, parameter: parameter,
            environment: environment, due: due, queue: queue, hereIfIdle: true, completion: { completion($0, queue?.snapshot) }
        ) { outcome throws(RequestError) -> [UInt8] in
            try ResultValidation.answeredBytes(outcome, requestKind: requestKind, kind: kind, bundlePath: widget.bundle.path)
        }
    }

    private func submitInProcess(
        _ requestKind: RequestKind, widget: RegisteredWidget, family: WidgetFamily, isPreview: Bool, configuration: String,
        parameter: String?, environment: RenderingEnvironment, due: Date?, completion: @escaping @Sendable (Result<ProviderResult, RequestError>) -> Void
    ) {
        submitInProcess(
            requestKind, widget: widget, family: family, isPreview: isPreview, configuration: configuration, parameter: parameter,
            environment: environment, due: due, completion: completion
        ) { outcome throws(RequestError) -> ProviderResult in
            try ResultValidation.validate(outcome, requestKind: requestKind, kind: widget.kind, family: family, bundlePath: widget.bundle.path)
        }
    }

    /// A request on the provider's queue (`queue`, when the caller has looked it up), its answer
    /// turned into the caller's `T` by `finish`.
    private func submitInProcess<T: Sendable>(
        _ requestKind: RequestKind, widget: RegisteredWidget, family: WidgetFamily, isPreview: Bool, configuration: String,
        parameter: String?, environment: RenderingEnvironment, due: Date?, queue: ProviderQueue? = nil, hereIfIdle: Bool = false,
        completion: @escaping @Sendable (Result<T, RequestError>) -> Void, finish: @escaping @Sendable (RequestOutcome) throws(RequestError) -> T
    ) {
        let kind = widget.kind
        guard let queue = queue ?? providerQueue(kind: kind) else {
            return completion(
                .failure(RequestError(kind: kind, bundlePath: widget.bundle.path, reason: .unknownKind, message: "has no provider queue")))
        }
        let deadline = deadlines[requestKind]
        let due = due ?? clock.now().addingTimeInterval(deadline.timeInterval)
        let naming = QueuedRequest(requestKind: requestKind, kind: kind, bundlePath: widget.bundle.path, deadline: deadline)
        queue.submit(due: due, clock: clock, hereIfIdle: hereIfIdle, naming: naming, completion: completion) {
            ticket throws(RequestError) -> T in
            try finish(
                self.answer(
                    requestKind, widget: widget, family: family, isPreview: isPreview, configuration: configuration,
                    parameter: parameter, environment: environment, queue: queue, due: due, ticket: ticket))
        }
    }

    /// What each provider has done so far: calls, failures, time in calls.
    public func statistics(kind: String) -> ProviderStatistics? {
        if let bundle = widget(kind: kind)?.bundle, let worker = bundle.worker {
            var statistics = worker.statistics(kind: kind)
            statistics.memoryLimit = providerMemoryLimit(bundle)
            return statistics
        }
        return providerQueue(kind: kind)?.snapshot
    }

    /// The same request on the calling thread, bypassing the provider's queue: for measuring the ABI
    /// alone. Not for hosts, which must keep a provider's calls on its queue.
    @_spi(Benchmarks) public func requestOnCallingThread(
        _ requestKind: RequestKind, kind: String, family: WidgetFamily? = nil
    ) throws(RequestError) -> ProviderResult {
        let (widget, family) = try widget(kind: kind, family: family)
        guard widget.bundle.worker == nil else {
            throw RequestError(kind: kind, bundlePath: widget.bundle.path, reason: .refused, message: "runs in a worker process")
        }
        let due = clock.now().addingTimeInterval(deadlines[requestKind].timeInterval)
        let outcome = try answer(
            requestKind, widget: widget, family: family, isPreview: false, configuration: "{}", parameter: nil,
            environment: .standard(for: family), queue: nil, due: due, ticket: nil)
        return try ResultValidation.validate(outcome, requestKind: requestKind, kind: kind, family: family, bundlePath: widget.bundle.path)
    }

    /// The widget of `kind` and the family to ask for (`family`, else the widget's first), or why not:
    /// no such kind (naming the known ones), or a family it does not support (naming those it does).
    public func widget(kind: String, family: WidgetFamily?) throws(RequestError) -> (RegisteredWidget, WidgetFamily) {
        guard let widget = widget(kind: kind) else {
            let known = widgets.map(\.kind)
            let hint = known.isEmpty ? "no widgets are loaded" : "known kinds: \(known.joined(separator: ", "))"
            throw RequestError(kind: kind, bundlePath: nil, reason: .unknownKind, message: "no such widget kind; \(hint)")
        }
        let family = family ?? widget.families[0]
        guard widget.families.contains(family) else {
            throw RequestError(
                kind: kind, bundlePath: widget.bundle.path, reason: .unsupportedFamily,
                message: "does not support \(family); it supports \(widget.families.map(String.init(describing:)).joined(separator: ", "))")
        }
        return (widget, family)
    }

    private func answer(
        _ requestKind: RequestKind, widget: RegisteredWidget, family: WidgetFamily, isPreview: Bool, configuration: String,
        parameter: String?, environment: RenderingEnvironment, queue: ProviderQueue?, due: Date, ticket: RequestTicket?
    ) throws(RequestError) -> RequestOutcome {
        let slot = queue?.memorySlot ?? 0
        let outcome = Result { () throws(RequestError) -> RequestOutcome in
            try widget.bundle.call(
                requestKind, kind: widget.kind, family: family, isPreview: isPreview || requestKind == .placeholder,
                configuration: configuration, parameter: parameter, environment: environment, deadline: deadlines[requestKind], due: due, clock: clock,
                memorySlot: slot,
                ticket: ticket)
        }
        // Over the limit, whatever it answered: terminated, as iOS terminates an extension.
        if let queue, MemoryGuard.exceeded(slot) {
            let peak = queue.terminate()
            throw RequestError(
                kind: widget.kind, bundlePath: widget.bundle.path, reason: .memoryLimitExceeded,
                message: "exceeded its memory limit: peak \(megabytes(peak)), limit \(megabytes(queue.memoryLimit)); terminated, it starts afresh on the next request")
        }
        return try outcome.get()
    }
}

extension LoadedBundle {
    /// One call through the ABI on the calling thread: builds the C request, passes the host's
    /// completion, and waits for the answer or until `due`. On a provider queue the ticket's deadline
    /// expires the wait; without one (`ticket` nil), the call sets its own timer.
    func call(
        _ requestKind: RequestKind, kind: String, family: WidgetFamily, isPreview: Bool, configuration: String,
        parameter: String? = nil, environment: RenderingEnvironment, deadline: Duration, due: Date, clock: WidgetClock, memorySlot: UInt32 = 0, ticket: RequestTicket? = nil
    ) throws(RequestError) -> RequestOutcome {
        let (id, pending) = PendingRequests.shared.begin(RequestLabel(requestKind: requestKind, widgetKind: kind, fileName: fileName))
        ticket?.requestID = id
        defer { ticket?.requestID = nil }
        let size = family.displaySize
        // The request's one argument goes in the field of its kind.
        let url = requestKind == .openURL ? parameter : nil
        let intent = requestKind == .performIntent ? parameter : nil
        let named = requestKind == .options ? parameter : nil
        kind.withCString { kindPointer in
            configuration.withCString { configurationPointer in
                withOptionalCString(named) { parameterPointer in
                withOptionalCString(url) { urlPointer in
                withOptionalCString(intent) { intentPointer in
                var request = widget_request_t(
                    struct_size: UInt32(MemoryLayout<widget_request_t>.size), request_kind: requestKind.abiValue,
                    widget_kind: kindPointer, family: family.abiValue, is_preview: isPreview,
                    display_width: size.width, display_height: size.height, configuration: configurationPointer,
                    parameter: parameterPointer, url: urlPointer, intent: intentPointer,
                    color_scheme: environment.abiColorScheme, rendering_mode: environment.abiRenderingMode,
                    shows_container_background: environment.showsContainerBackground)
                // What the provider allocates during its call is charged to its slot.
                let call = { self.request(&request, hostCompletion, UnsafeMutableRawPointer(bitPattern: id)) }
                MemoryGuard.charging(memorySlot) {
                    if let ticket { ticket.insideBundle(call) } else { call() }
                }
                }
                }
                }
            }
        }
        let outcome: RequestOutcome?
        if clock.now() >= due {
            // The provider held the call past its deadline: too late, even if it answered meanwhile.
            PendingRequests.shared.expire(id)
            outcome = nil
        } else if let answered = PendingRequests.shared.outcome(of: pending) {
            // Answered before `request` returned, the common case.
            outcome = answered
        } else if let ticket {
            // The ticket's deadline expires this wait (and it may already have).
            if ticket.isFinished { PendingRequests.shared.expire(id) }
            outcome = PendingRequests.shared.wait(for: pending)
        } else {
            let timer = clock.schedule(at: due) { PendingRequests.shared.expire(id) }
            outcome = PendingRequests.shared.wait(for: pending)
            timer.cancel()
        }
        guard let outcome else { throw .timedOut(requestKind, kind: kind, bundlePath: path, deadline: deadline) }
        return outcome
    }
}

extension Duration {
    var timeInterval: TimeInterval {
        // `components` divides a 128-bit count each time it is read: once, not twice.
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

enum ResultValidation {
    /// The bytes a provider answered with, or the error for an answer that failed or was malformed
    /// (naming the request and the widget): the first step of `validate`, and all a worker does
    /// before passing an answer on to its host.
    static func answeredBytes(
        _ outcome: RequestOutcome, requestKind: RequestKind, kind: String, bundlePath: String
    ) throws(RequestError) -> [UInt8] {
        switch outcome {
        case .data(let bytes): return bytes
        case .failure(let message):
            throw RequestError(
                kind: kind, bundlePath: bundlePath, reason: .providerFailed, message: "\(requestKind.rawValue) failed: \(message ?? "no reason given")")
        case .malformed(let message):
            throw RequestError(kind: kind, bundlePath: bundlePath, reason: .malformedResult, message: "malformed \(requestKind.rawValue) result: \(message)")
        }
    }

    static func validate(
        _ outcome: RequestOutcome, requestKind: RequestKind, kind: String, family: WidgetFamily, bundlePath: String
    ) throws(RequestError) -> ProviderResult {
        func fail(_ reason: RequestError.Reason, _ message: String) -> RequestError {
            RequestError(kind: kind, bundlePath: bundlePath, reason: reason, message: message)
        }
        let bytes = try answeredBytes(outcome, requestKind: requestKind, kind: kind, bundlePath: bundlePath)
        if !requestKind.answersWithEntries {
            return ProviderResult(
                kind: kind, requestKind: requestKind, family: family, entries: [], policy: nil, notes: [],
                payload: try payload(bytes, requestKind: requestKind, fail: fail))
        }
        let timeline: WireTimeline
        do {
            timeline = try bytes.withUnsafeBufferPointer { buffer throws(WireFormatError) in try WireTimeline(bytes: buffer) }
        } catch {
            throw fail(.malformedResult, "malformed \(requestKind.rawValue) result: \(error)")
        }
        var notes: [String] = []
        var entries = timeline.entries
        switch requestKind {
        case .placeholder, .snapshot:
            guard entries.count == 1 else {
                throw fail(.invalidResult, "\(requestKind.rawValue) must have exactly one entry, it has \(entries.count)")
            }
        case .options, .recommendations, .openURL, .performIntent:
            preconditionFailure("answered above")
        case .timeline:
            guard timeline.policy != nil else { throw fail(.invalidResult, "timeline has no reload policy") }
            guard !entries.isEmpty else { throw fail(.invalidResult, "timeline has no entries") }
            if zip(entries, entries.dropFirst()).contains(where: { $0.date > $1.date }) {
                // Stable: entries with equal dates keep the provider's order.
                entries = entries.enumerated().sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }.map(\.element)
                notes.append("entries were not in date order; sorted by date (equal dates keep their order)")
            }
        }
        // What iOS leaves undefined or ignores in the views: the author is told, once per kind of note.
        for entry in entries {
            for note in TapTargets.notes(for: entry.view, family: family) where !notes.contains(note) { notes.append(note) }
        }
        return ProviderResult(
            kind: kind, requestKind: requestKind, family: family, entries: entries,
            policy: requestKind == .timeline ? timeline.policy : nil, notes: notes)
    }
}

extension ResultValidation {
    /// An options or recommendations answer: well-formed, of the shape its kind has.
    static func payload(
        _ bytes: [UInt8], requestKind: RequestKind, fail: (RequestError.Reason, String) -> RequestError
    ) throws(RequestError) -> JSONValue {
        let value: JSONValue
        do {
            value = try JSONValue.parse(bytes)
        } catch {
            throw fail(.malformedResult, "malformed \(requestKind.rawValue) result: \(error)")
        }
        do {
            switch requestKind {
            case .options: _ = try ParameterOptions(json: value)
            case .recommendations: _ = try WireRecommendation.list(json: value)
            case .openURL, .performIntent:
                guard case .object = value else { throw WireFormatError(path: "", reason: "expected a JSON object") }
            case .placeholder, .snapshot, .timeline: break
            }
        } catch {
            throw fail(.invalidResult, "invalid \(requestKind.rawValue) result: \(error)")
        }
        return value
    }
}
