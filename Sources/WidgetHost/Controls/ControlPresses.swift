import FoundationEssentials
import WidgetABI
import WidgetWire

extension WidgetRegistry {
    /// A Control's name: its `displayName`, else its kind.
    public func controlName(_ kind: String) -> String {
        control(kind: kind).map { $0.displayName.isEmpty ? kind : $0.displayName } ?? kind
    }

    /// A Control as it is now: its bundle asked (its value provider's current value).
    public func controlState(kind: String) async throws(RequestError) -> WireControl {
        let result = try await request(.control, kind: kind)
        guard let payload = result.payload else {
            throw RequestError(kind: kind, bundlePath: nil, reason: .invalidResult, message: "answered no control")
        }
        do {
            return try WireControl(json: payload)
        } catch {
            throw RequestError(kind: kind, bundlePath: nil, reason: .invalidResult, message: "invalid control result: \(error)")
        }
    }

    /// Presses a Control: its action performed (a toggle's with `value` its new state), then its
    /// state asked again, which it returns. A disabled control, or `set` of a button, is refused.
    public func press(control kind: String, _ press: ControlPress) async throws -> WireControl {
        let now = try await controlState(kind: kind)
        if now.disabled { throw TapError("control \"\(kind)\" is disabled") }
        var turning: Bool?
        if case .set(let on) = press {
            guard now.template == .toggle else { throw TapError("control \"\(kind)\" is a button, which is pressed, not set on or off") }
            turning = on
        }
        _ = try await request(.performIntent, kind: kind, parameter: now.pressed(turning: turning).jsonText)
        return try await controlState(kind: kind)
    }
}

extension WireControl {
    /// What a control says, in one line: its label and, for a toggle, its value label or state.
    public func text(describe: (ViewNode) -> String) -> String {
        let label = describe(self.label)
        guard template == .toggle else { return label }
        let value = valueLabel.map(describe).flatMap { $0.isEmpty ? nil : $0 } ?? (isOn ? "On" : "Off")
        return label.isEmpty ? value : "\(label): \(value)"
    }
}
