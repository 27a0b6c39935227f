import FoundationEssentials
import Glibc
import WidgetABI
import WidgetSupport
import WidgetWire

/// One message between the host and a worker process.
///
/// On the wire: `[u32 length][u8 type][fields]`, the length counting what follows it, integers
/// little-endian. A request carries what the ABI's `widget_request_t` carries, with the C header's
/// numbers for the request kind, family and environment, and its configuration as the JSON the
/// bundle reads; an answer carries the bundle's bytes as it gave them (the host checks them). Both
/// are fields in a fixed order, so neither side parses JSON to route a request. Only the worker's
/// first message, what it loaded, is a JSON object.
enum WorkerMessage: Sendable {
    /// Worker to host, first and once: the bundle it loaded, its widgets and its problems.
    case hello(JSONObject)
    /// Host to worker: one request for one provider.
    case request(WorkerRequest)
    /// Host to worker: the host's time, by which the worker's deadlines are measured.
    case clock(now: Date)
    /// Worker to host: a request's answer.
    case answer(WorkerAnswer)
    /// Host to worker: it has been asked nothing for a while (`ProcessIsolation.idleRelease`), and
    /// gives back what it can make again.
    case idle

    /// The type byte on the wire.
    enum Tag: UInt8 {
        case hello = 1, request, clock, answer, idle
    }

    /// Bodies are bounded by the result limit, with room for the fields around them: a worker
    /// claiming a longer message is not believed, and nothing of it is read.
    static var maximumLength: Int { ResultLimit.bytes + (1 << 20) }

    /// The message on the wire, its length first: its fields are counted, then written, in one
    /// allocation (a request and an answer are encoded on every round trip).
    func encoded() -> [UInt8] {
        switch self {
        case .hello(let object):
            var json = JSONWriter(reservingCapacity: 1024)
            json.write(.object(object))
            return MessageWriter.message(.hello) { $0.raw(json.bytes) }
        case .request(let request):
            var widget = request.widget
            var parameter = request.parameter
            return MessageWriter.message(.request) { writer in
                writer.integer(request.id)
                writer.integer(request.kind.abiValue)
                writer.integer(request.family.abiValue)
                writer.integer(request.isPreview ? 1 as UInt8 : 0)
                writer.integer(request.environment.colorScheme.abiValue)
                writer.integer(request.environment.renderingMode.abiValue)
                writer.integer(request.environment.showsContainerBackground ? 1 as UInt8 : 0)
                writer.date(request.now)
                writer.date(request.due)
                writer.string(&widget)
                writer.integer(parameter == nil ? 0 as UInt8 : 1)
                if parameter != nil { writer.string(&parameter!) }
                writer.data(request.configuration)
            }
        case .clock(let now):
            return MessageWriter.message(.clock) { $0.date(now) }
        case .idle:
            return MessageWriter.message(.idle) { _ in }
        case .answer(let answer):
            var reason = ""
            var message = ""
            if case .error(let given, let text) = answer.outcome { (reason, message) = (given.rawValue, text) }
            return MessageWriter.message(.answer) { writer in
                writer.integer(answer.id)
                writer.integer(answer.stuck ? 1 as UInt8 : 0)
                writer.integer(answer.liveBytes ?? -1)
                writer.integer(answer.peakBytes ?? -1)
                switch answer.outcome {
                case .result(let bytes):
                    writer.integer(0 as UInt8)
                    writer.data(bytes)
                case .error:
                    writer.integer(1 as UInt8)
                    writer.string(&reason)
                    writer.string(&message)
                }
            }
        }
    }

    /// Decodes the fields after the length; throws what is wrong with them.
    init(fields: UnsafeRawBufferPointer) throws(ChannelError) {
        var reader = MessageReader(fields)
        let tagByte: UInt8 = try reader.integer("its type")
        guard let tag = Tag(rawValue: tagByte) else { throw .malformed("unknown message type \(tagByte)") }
        switch tag {
        case .hello:
            let json: JSONValue
            do {
                json = try JSONValue.parse(reader.rest().assumingMemoryBound(to: UInt8.self))
            } catch {
                throw .malformed("hello: \(error)")
            }
            guard case .object(let object) = json else { throw .malformed("hello: not a JSON object") }
            self = .hello(object)
            return
        case .request:
            let id: UInt64 = try reader.integer("a request's id")
            let kindValue: UInt32 = try reader.integer("a request's kind")
            guard let kind = RequestKind(abiValue: kindValue) else { throw .malformed("a request of unknown kind \(kindValue)") }
            let familyValue: UInt32 = try reader.integer("a request's family")
            guard let family = WidgetFamily(abiValue: familyValue) else { throw .malformed("a request for unknown family \(familyValue)") }
            let isPreview: UInt8 = try reader.integer("a request's preview flag")
            let colorScheme: UInt32 = try reader.integer("a request's colour scheme")
            let renderingMode: UInt32 = try reader.integer("a request's rendering mode")
            let background: UInt8 = try reader.integer("a request's container background flag")
            let now = try reader.date("a request's time")
            let due = try reader.date("a request's deadline")
            let widget = try reader.string("a request's widget kind")
            let parameter = try reader.optionalString("a request's parameter")
            let configuration = try reader.data("a request's configuration")
            self = .request(
                WorkerRequest(
                    id: id, kind: kind, widget: widget, family: family, isPreview: isPreview != 0,
                    environment: RenderingEnvironment(abiColorScheme: colorScheme, abiRenderingMode: renderingMode, showsContainerBackground: background != 0),
                    now: now, due: due, parameter: parameter, configuration: configuration))
        case .clock:
            self = .clock(now: try reader.date("the clock's time"))
        case .idle:
            self = .idle
        case .answer:
            let id: UInt64 = try reader.integer("an answer's id")
            let stuck: UInt8 = try reader.integer("an answer's stuck flag")
            let live: Int64 = try reader.integer("an answer's live bytes")
            let peak: Int64 = try reader.integer("an answer's peak bytes")
            let outcome: WorkerAnswer.Outcome
            switch try reader.integer("an answer's outcome") as UInt8 {
            case 0:
                outcome = .result(try reader.data("an answer's result"))
            case 1:
                let reasonText = try reader.string("an error's reason")
                // A reason this host does not know still fails the request, as the provider's failure.
                let reason = RequestError.Reason(rawValue: reasonText) ?? .providerFailed
                // A bundle may write on its worker's channel: its text is made safe to print.
                outcome = .error(reason, String(bundleText: try reader.string("an error's message")))
            case let other:
                throw .malformed("an answer with unknown outcome \(other)")
            }
            self = .answer(
                WorkerAnswer(id: id, outcome: outcome, stuck: stuck != 0, liveBytes: live < 0 ? nil : live, peakBytes: peak < 0 ? nil : peak))
        }
        guard reader.isAtEnd else {
            let article = "\(tag)".first.map { "aeiou".contains($0) } == true ? "an" : "a"
            throw .malformed("\(reader.remaining) \(reader.remaining == 1 ? "byte" : "bytes") after \(article) \(tag) message")
        }
    }
}
