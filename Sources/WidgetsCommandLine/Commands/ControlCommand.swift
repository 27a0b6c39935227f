import FoundationEssentials
import WidgetHost
import WidgetRendering
import WidgetSupport
import WidgetWire

extension Command {
    static let control = Command(
        "control", summary: "List the bundles' Controls with their state, or press one, as Control Center does.", arguments: ["[KIND]"],
        options: [Options.plugins.spec, Options.isolation.spec, Options.press.spec, Options.setControl.spec, Options.json.spec],
        discussion: """
            Without KIND, every Control (iOS 18's ControlWidget) with its state: a button's label, a toggle's label and
            value. With KIND, that one; --press presses it (a button performs its action, a toggle turns over), --set
            on|off sets a toggle. Through the running host, which tells bars and pages of the new state; with none
            running, this command loads the bundles and does it. For a waybar module: 'exec' is 'widgets watch KIND
            --format waybar' (its class is "on" or "off") and 'on-click' is 'widgets control KIND --press'.
            """
    ) { try await $0.control(kind: $0.argument(0)) }
}

extension Options {
    static let press = Option(flag: "press", help: "press the control: a button performs its action, a toggle turns over")
    static let setControl = Option<Bool>("set", value: "on|off", help: "set a toggle on or off") { text in
        switch text {
        case "on", "true", "1": .success(true)
        case "off", "false", "0": .success(false)
        default: .failure(UsageText("--set takes on or off, not '\(text)'"))
        }
    }
}

extension Invocation {
    /// `widgets control [KIND] [--press | --set on|off]`.
    func control(kind: String?) async throws(UsageError) -> ExitCode {
        let set = try value(Options.setControl)
        let pressing = isSet(Options.press)
        if pressing && set != nil { throw usageError("give --press or --set, not both") }
        let press: ControlPress? = pressing ? .press : set.map { .set($0) }
        if press != nil && kind == nil { throw usageError("name the control to press: 'widgets control KIND --press'") }
        let request: ControlRequest = press.map { .pressControl(kind: kind!, press: $0) } ?? .controls(kind: kind)
        let entries: [ControlEntry]
        if let client = try? ControlClient() {
            do {
                switch try client.send(request) {
                case .controls(let list): entries = list
                case .refused(let reason):
                    output.standardError("widgets: error: \(reason)")
                    return .failure
                default:
                    output.standardError("widgets: error: the host answered something else than controls")
                    return .failure
                }
            } catch {
                output.standardError("widgets: error: \(error)")
                return .failure
            }
        } else {
            let (registry, _) = try loadSearchPath(for: kind)
            defer { registry.shutDownWorkers() }
            reportProblems(registry, as: "warning")
            var list: [ControlEntry] = []
            for kind in kind.map({ [$0] }) ?? registry.controls.map(\.kind) {
                let name = registry.controlName(kind)
                do {
                    let control: WireControl
                    if let press { control = try await registry.press(control: kind, press) } else { control = try await registry.controlState(kind: kind) }
                    list.append(ControlEntry(kind: kind, name: name, control: control))
                } catch {
                    output.standardError("widgets: error: \((error as? RequestError)?.described(as: "control") ?? "\(error)")")
                    return .failure
                }
            }
            entries = list
        }
        if isSet(Options.json) {
            output.standardOutput(JSONValue.array(entries.map(\.json)).jsonText)
        } else if entries.isEmpty {
            output.standardOutput("no controls")
        } else {
            let describe = { (view: ViewNode) in PlainTextRenderer.lines(view).joined(separator: " ") }
            let rows = entries.map { entry in
                [entry.kind, entry.control.map { $0.template.rawValue } ?? "-", entry.control?.text(describe: describe) ?? (entry.failure ?? "")]
            }
            output.standardOutput(Render.table(header: ["KIND", "TYPE", "STATE"], rows: rows))
        }
        return entries.contains { $0.failure != nil } ? .failure : .success
    }
}
