import CWidgetABI
import Foundation
import WidgetWire

/// What the host asks a provider for.
public enum RequestKind: String, CaseIterable, Sendable {
    case placeholder
    case snapshot
    case timeline

    var abiValue: UInt32 {
        switch self {
        case .placeholder: UInt32(WIDGET_REQUEST_PLACEHOLDER.rawValue)
        case .snapshot: UInt32(WIDGET_REQUEST_SNAPSHOT.rawValue)
        case .timeline: UInt32(WIDGET_REQUEST_TIMELINE.rawValue)
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
        case .snapshot: snapshot
        case .timeline: timeline
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
        case malformedResult
        case invalidResult
    }

    public let kind: String
    public let bundlePath: String?
    public let reason: Reason
    public let message: String

    public var description: String {
        let bundle = bundlePath.map { " (\(($0 as NSString).lastPathComponent))" } ?? ""
        return "widget \"\(kind)\"\(bundle): \(message)"
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
}

extension WidgetRegistry {
    /// Asks a widget's provider for a placeholder, snapshot or timeline and waits for its answer, at
    /// most the deadline for that kind of request.
    public func request(
        _ requestKind: RequestKind, kind: String, family: WidgetFamily? = nil, isPreview: Bool = false,
        configuration: String = "{}", deadlines: RequestDeadlines = .default
    ) throws(RequestError) -> ProviderResult {
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
        let outcome = try widget.bundle.call(
            requestKind, kind: kind, family: family, isPreview: isPreview || requestKind == .placeholder,
            configuration: configuration, deadline: deadlines[requestKind])
        return try ResultValidation.validate(outcome, requestKind: requestKind, kind: kind, family: family, bundlePath: widget.bundle.path)
    }
}

extension LoadedBundle {
    /// One call through the ABI: builds the C request, passes the host's completion, and waits.
    func call(
        _ requestKind: RequestKind, kind: String, family: WidgetFamily, isPreview: Bool, configuration: String,
        deadline: Duration
    ) throws(RequestError) -> RequestOutcome {
        // The deadline runs from the call, so time a bundle spends inside `request` counts too.
        let (seconds, attoseconds) = deadline.components
        let due = DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        let (id, pending) = PendingRequests.shared.begin(RequestLabel(requestKind: requestKind, widgetKind: kind, fileName: fileName))
        let size = family.displaySize
        kind.withCString { kindPointer in
            configuration.withCString { configurationPointer in
                var request = widget_request_t(
                    struct_size: UInt32(MemoryLayout<widget_request_t>.size), request_kind: requestKind.abiValue,
                    widget_kind: kindPointer, family: family.abiValue, is_preview: isPreview,
                    display_width: size.width, display_height: size.height, configuration: configurationPointer)
                self.request(&request, hostCompletion, UnsafeMutableRawPointer(bitPattern: id))
            }
        }
        guard let outcome = PendingRequests.shared.wait(id, pending, until: due) else {
            throw RequestError(
                kind: kind, bundlePath: path, reason: .timedOut,
                message: "\(requestKind.rawValue) did not complete within \(deadline)")
        }
        return outcome
    }
}

enum ResultValidation {
    static func validate(
        _ outcome: RequestOutcome, requestKind: RequestKind, kind: String, family: WidgetFamily, bundlePath: String
    ) throws(RequestError) -> ProviderResult {
        func fail(_ reason: RequestError.Reason, _ message: String) -> RequestError {
            RequestError(kind: kind, bundlePath: bundlePath, reason: reason, message: message)
        }
        let bytes: [UInt8]
        switch outcome {
        case .failure(let message): throw fail(.providerFailed, "\(requestKind.rawValue) failed: \(message ?? "no reason given")")
        case .malformed(let message): throw fail(.malformedResult, "malformed \(requestKind.rawValue) result: \(message)")
        case .data(let data): bytes = data
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
        case .timeline:
            guard let policy = timeline.policy else { throw fail(.invalidResult, "timeline has no reload policy") }
            guard !entries.isEmpty else { throw fail(.invalidResult, "timeline has no entries") }
            if case .after(let date) = policy, !date.isFinite { throw fail(.invalidResult, "reload policy date is not a number") }
            if zip(entries, entries.dropFirst()).contains(where: { $0.date > $1.date }) {
                // Stable: entries with equal dates keep the provider's order.
                entries = entries.enumerated().sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }.map(\.element)
                notes.append("entries were not in date order; sorted by date (equal dates keep their order)")
            }
        }
        return ProviderResult(
            kind: kind, requestKind: requestKind, family: family, entries: entries,
            policy: requestKind == .timeline ? timeline.policy : nil, notes: notes)
    }
}
