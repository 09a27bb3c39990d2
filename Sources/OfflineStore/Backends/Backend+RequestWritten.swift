/// A backend that can say whether its pushes report when their request went out
/// (``RequestWritten``): the flush then writes the previous batch's answers only after that.
/// For a backend that does not conform, or answers false, the flush only yields once before
/// it writes.
protocol ReportsRequestWritten: Backend {
    /// Whether a push fires ``RequestWritten/current`` when its request goes out.
    var reportsRequestWritten: Bool { get }
}

extension KintoBackend: ReportsRequestWritten {
    var reportsRequestWritten: Bool { transport is URLSessionTransport }
}

extension RESTBackend: ReportsRequestWritten {
    var reportsRequestWritten: Bool { transport is URLSessionTransport }
}

extension ODataBackend: ReportsRequestWritten {
    var reportsRequestWritten: Bool { transport is URLSessionTransport }
}
