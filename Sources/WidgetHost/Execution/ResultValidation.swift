import FoundationEssentials
import WidgetABI
import WidgetWire

/// The host's checks of a provider's answer, the same whichever backend it came through.
enum ResultValidation {
    /// The bytes a provider answered with, or the error for an answer that failed or was malformed
    /// (naming the request and the widget): the first step of `validate`, and all a worker does
    /// before passing an answer on to its host.
    static func answeredBytes(_ outcome: RequestOutcome, for call: ProviderCall) throws(RequestError) -> [UInt8] {
        let (requestKind, kind, bundlePath) = (call.requestKind, call.kind, call.bundlePath)
        switch outcome {
        case .data(let bytes): return bytes
        case .failure(let message):
            throw RequestError(
                kind: kind, bundlePath: bundlePath, reason: .providerFailed, message: "\(requestKind.rawValue) failed: \(message ?? "no reason given")")
        case .malformed(let message):
            throw RequestError(kind: kind, bundlePath: bundlePath, reason: .malformedResult, message: "malformed \(requestKind.rawValue) result: \(message)")
        }
    }

    /// The answer to `call`, checked: well-formed, of the shape its request kind has, entries in date
    /// order (sorted, with a note, when they are not).
    static func validate(_ outcome: RequestOutcome, for call: ProviderCall) throws(RequestError) -> ProviderResult {
        let (requestKind, kind, family, bundlePath) = (call.requestKind, call.kind, call.family, call.bundlePath)
        func fail(_ reason: RequestError.Reason, _ message: String) -> RequestError {
            RequestError(kind: kind, bundlePath: bundlePath, reason: reason, message: message)
        }
        let bytes = try answeredBytes(outcome, for: call)
        if requestKind == .previews {
            let value = try payload(bytes, requestKind: requestKind, fail: fail)
            let previews: [WirePreview]
            do { previews = try WirePreview.list(json: value) } catch { throw fail(.invalidResult, "invalid previews result: \(error)") }
            var notes: [String] = []
            for preview in previews {
                for entry in preview.entries {
                    for note in TapTargets.notes(for: entry.view, family: preview.family) where !notes.contains(note) { notes.append(note) }
                }
            }
            return ProviderResult(kind: kind, requestKind: requestKind, family: family, entries: [], policy: nil, notes: notes, previews: previews)
        }
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
        case .options, .recommendations, .openURL, .performIntent, .previews, .activity, .control:
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
            case .activity: _ = try WireActivityPresentations(json: value)
            case .control: _ = try WireControl(json: value)
            case .openURL, .performIntent, .previews:
                guard case .object = value else { throw WireFormatError(path: "", reason: "expected a JSON object") }
            case .placeholder, .snapshot, .timeline: break
            }
        } catch {
            throw fail(.invalidResult, "invalid \(requestKind.rawValue) result: \(error)")
        }
        return value
    }
}
