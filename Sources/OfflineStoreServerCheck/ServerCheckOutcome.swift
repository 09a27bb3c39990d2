/// What a server check's probe saw of one guarantee: the same three outcomes for a REST
/// server (``RESTServerCheck``) and an OData service (``ODataServerCheck``).
public enum ServerCheckOutcome: String, Sendable, Hashable {
    /// The server behaved as the guarantee says.
    case holds
    /// It did not.
    case fails
    /// The probe could not tell (the reason is in the row's detail).
    case notChecked
}
