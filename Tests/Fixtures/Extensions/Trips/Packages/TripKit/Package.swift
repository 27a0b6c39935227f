// swift-tools-version: 5.9
import PackageDescription

let package = Package(
    name: "TripKit",
    platforms: [.iOS(.v16)],
    products: [.library(name: "TripKit", targets: ["TripKit"])],
    targets: [.target(name: "TripKit")]
)
