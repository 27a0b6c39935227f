public import Foundation
import WidgetWire

// Effects SwiftUI draws a view with after layout, its frame unchanged: sent to the host, which draws
// them in SVG (the home screen, the gallery); a terminal draws the view as laid out.

extension View {
    public func rotationEffect(_ angle: Angle, anchor: UnitPoint = .center) -> some View {
        wire("rotationEffect", Self.effect([("degrees", angle.degrees)], anchor))
    }

    public func scaleEffect(_ scale: CGFloat, anchor: UnitPoint = .center) -> some View {
        scaleEffect(x: scale, y: scale, anchor: anchor)
    }

    public func scaleEffect(_ scale: CGSize, anchor: UnitPoint = .center) -> some View {
        scaleEffect(x: scale.width, y: scale.height, anchor: anchor)
    }

    public func scaleEffect(x: CGFloat = 1, y: CGFloat = 1, anchor: UnitPoint = .center) -> some View {
        wire("scaleEffect", Self.effect([("x", Double(x)), ("y", Double(y))], anchor))
    }

    /// An affine transform from the view's top-leading corner, drawn as the scale, rotation and
    /// offset it is made of (a shear has no part here).
    public func transformEffect(_ transform: CGAffineTransform) -> some View {
        let scaleX = (transform.a * transform.a + transform.b * transform.b).squareRoot()
        let scaleY = scaleX == 0 ? 0 : (transform.a * transform.d - transform.b * transform.c) / scaleX
        return scaleEffect(x: scaleX, y: scaleY, anchor: .topLeading)
            .rotationEffect(.radians(Double(atan2(transform.b, transform.a))), anchor: .topLeading)
            .offset(x: transform.tx, y: transform.ty)
    }

    public func shadow(color: Color = .black.opacity(0.33), radius: CGFloat, x: CGFloat = 0, y: CGFloat = 0) -> some View {
        wire(
            "shadow",
            .object(JSONObject([("color", color.json), ("radius", .number(Double(radius))), ("x", .number(Double(x))), ("y", .number(Double(y)))])))
    }

    public func blur(radius: CGFloat, opaque: Bool = false) -> some View {
        wire("blur", .object(JSONObject([("radius", .number(Double(radius)))])))
    }

    /// How the view's drawing mixes with what is under it.
    public func blendMode(_ blendMode: BlendMode) -> some View {
        wire("blendMode", .string(String(describing: blendMode)))
    }

    private static func effect(_ members: [(String, Double)], _ anchor: UnitPoint) -> JSONValue {
        .object(JSONObject(members.map { ($0.0, JSONValue.number($0.1)) } + [("anchorX", .number(Double(anchor.x))), ("anchorY", .number(Double(anchor.y)))]))
    }
}
