/**
 * Who may call, the same for every transport: the {@link
 * dev.feedstore.server.internal.access.Authenticator} finds a call's {@link
 * dev.feedstore.server.internal.access.Caller} from its bearer token (a token of the tokens file, or
 * a JWT checked by {@code JwtAccess}, its grants claim read by {@code GrantsClaim}), and the caller
 * says whether its grants, per space or per namespace of a space ({@code Grants}), cover a read's
 * scope or an append's feeds, given the namespaces the store holds ({@code StoredNamespaces});
 * {@code PrincipalLimits} bounds what each principal may use;
 * {@code TlsIdentity} checks the server's certificate and key. Imports errors, monitoring and
 * settings only.
 */
package dev.feedstore.server.internal.access;
