import WidgetsCommandLine

// Linked with the Swift runtime and Foundation inside it (Package.swift): bundles are loaded by its
// companion, widgets-worker.
WidgetsMain.run()
