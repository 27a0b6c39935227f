/// A control (iOS 18's `ControlWidget`) as its bundle draws it now (ABI 1.7's control request): a
/// button or a toggle, its label, its state and the intent it performs.
public struct WireControl: Equatable, Sendable {
    public enum Template: String, Sendable, CaseIterable {
        case button, toggle
    }

    public var template: Template
    /// What it says: its title and image, as a view tree.
    public var label: ViewNode
    /// A toggle's label for its state ("On", "Heating"), when it gives one.
    public var valueLabel: ViewNode?
    /// A toggle's state.
    public var isOn: Bool
    /// The intent a press performs, as a view records one (`{"type": …, "parameters": {…}}`); a
    /// toggle's is performed with `parameters.value` set to the new state.
    public var action: JSONValue
    public var tint: JSONValue?
    public var disabled: Bool

    public init(
        template: Template, label: ViewNode, valueLabel: ViewNode? = nil, isOn: Bool = false, action: JSONValue, tint: JSONValue? = nil,
        disabled: Bool = false
    ) {
        self.template = template
        self.label = label
        self.valueLabel = valueLabel
        self.isOn = isOn
        self.action = action
        self.tint = tint
        self.disabled = disabled
    }

    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("template", .string(template.rawValue)), ("label", label.json)]
        if let valueLabel { members.append(("valueLabel", valueLabel.json)) }
        if template == .toggle { members.append(("isOn", .bool(isOn))) }
        members.append(("action", action))
        if let tint { members.append(("tint", tint)) }
        if disabled { members.append(("disabled", .bool(true))) }
        return .object(JSONObject(members))
    }

    /// An answer to a control request, checked.
    public init(json: JSONValue) throws(WireFormatError) {
        guard case .object = json else { throw WireFormatError(path: "", reason: "expected a JSON object") }
        guard let name = json["template"]?.stringValue, let template = Template(rawValue: name) else {
            throw WireFormatError(path: "template", reason: "expected \"button\" or \"toggle\"")
        }
        self.template = template
        guard let label = json["label"] else { throw WireFormatError(path: "label", reason: "a control has a label") }
        do { self.label = try ViewNode(json: label) } catch { throw WireFormatError(path: "label", reason: "\(error)") }
        if let value = json["valueLabel"], value != .null {
            do { valueLabel = try ViewNode(json: value) } catch { throw WireFormatError(path: "valueLabel", reason: "\(error)") }
        } else {
            valueLabel = nil
        }
        switch json["isOn"] {
        case nil, .null?: isOn = false
        case .bool(let on)?: isOn = on
        default: throw WireFormatError(path: "isOn", reason: "expected true or false")
        }
        guard let action = json["action"], action["type"]?.stringValue != nil else {
            throw WireFormatError(path: "action", reason: "expected the intent a press performs, {\"type\": …, \"parameters\": {…}}")
        }
        self.action = action
        tint = json["tint"].flatMap { $0 == .null ? nil : $0 }
        disabled = json["disabled"]?.boolValue ?? false
    }

    /// The intent a press performs: a button's as recorded; a toggle's with `value` set to the state
    /// it turns to (`SetValueIntent`), `on` (else the opposite of its state).
    public func pressed(turning on: Bool? = nil) -> JSONValue {
        guard template == .toggle, var intent = action.objectValue else { return action }
        var parameters = intent["parameters"]?.objectValue ?? JSONObject()
        parameters["value"] = .bool(on ?? !isOn)
        intent["parameters"] = .object(parameters)
        return .object(intent)
    }
}

/// How a control is pressed: as a person taps it (a button performs its action, a toggle turns
/// over), or a toggle set to a state.
public enum ControlPress: Sendable, Equatable {
    case press
    case set(Bool)
}

/// A Control as the host reports it: its kind, its name, and its state now (or why it has none).
public struct ControlEntry: Equatable, Sendable {
    public var kind: String
    public var name: String
    public var control: WireControl?
    public var failure: String?

    public init(kind: String, name: String, control: WireControl?, failure: String? = nil) {
        self.kind = kind
        self.name = name
        self.control = control
        self.failure = failure
    }

    public var json: JSONValue {
        .object(
            JSONObject([
                ("kind", .string(kind)), ("name", .string(name)), ("control", control?.json ?? .null),
                ("failure", failure.map(JSONValue.string) ?? .null),
            ]))
    }

    public init(json: JSONValue) throws(WireFormatError) {
        guard let kind = json["kind"]?.stringValue else { throw WireFormatError(path: "kind", reason: "expected a string") }
        self.kind = kind
        name = json["name"]?.stringValue ?? kind
        if let control = json["control"], control != .null {
            do { self.control = try WireControl(json: control) } catch { throw error.within("control") }
        } else {
            control = nil
        }
        failure = json["failure"]?.stringValue
    }
}
