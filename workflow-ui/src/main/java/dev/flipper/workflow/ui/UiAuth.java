package dev.flipper.workflow.ui;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;

/**
 * Who may use the UI and how (the {@code ui.users}, {@code ui.trustedUserHeader}, {@code
 * ui.trustedProxies}, {@code ui.allowAnonymous}, {@code ui.baseUrl} and {@code ui.allowedHosts}
 * settings, docs/ui.md "Sign-in" and "Security"). With no users and no trusted header everyone is
 * an anonymous operator, which only a loopback bind or {@code allowAnonymous} permits. Immutable.
 *
 * @param users who may sign in with a password (BCrypt hashes from {@code flipper hash-password
 *     --bcrypt})
 * @param trustedUserHeader a header naming the user, set by an authenticating proxy; "" = none
 * @param trustedProxies the addresses whose {@code trustedUserHeader} and {@code X-Forwarded-Proto}
 *     are believed; from anyone else they are ignored
 * @param allowAnonymous true = serve a non-loopback address without sign-in (everyone is an
 *     operator)
 * @param baseUrl the UI's address as users reach it; its host is one the UI answers ("" = none)
 * @param allowedHosts more {@code Host} header values the UI answers ({@code name} or {@code
 *     name:port}); any other is refused (DNS rebinding), see {@link HostCheck}
 */
public record UiAuth(
    List<User> users,
    String trustedUserHeader,
    List<String> trustedProxies,
    boolean allowAnonymous,
    String baseUrl,
    List<String> allowedHosts) {

  /** Sign-in off: fine on loopback only. */
  public static final UiAuth NONE = new UiAuth(List.of(), "", List.of(), false);

  public UiAuth {
    users = users == null ? List.of() : List.copyOf(users);
    trustedUserHeader = trustedUserHeader == null ? "" : trustedUserHeader;
    trustedProxies = trustedProxies == null ? List.of() : List.copyOf(trustedProxies);
    baseUrl = baseUrl == null ? "" : baseUrl;
    allowedHosts = allowedHosts == null ? List.of() : List.copyOf(allowedHosts);
  }

  /** Answering only the loopback names (and the bind address). */
  public UiAuth(
      List<User> users,
      String trustedUserHeader,
      List<String> trustedProxies,
      boolean allowAnonymous) {
    this(users, trustedUserHeader, trustedProxies, allowAnonymous, "", List.of());
  }

  /** The same with these {@code Host} settings. */
  public UiAuth withHosts(String baseUrl, List<String> allowedHosts) {
    return new UiAuth(
        users, trustedUserHeader, trustedProxies, allowAnonymous, baseUrl, allowedHosts);
  }

  /** What a user may do: a viewer reads, an operator also runs actions. */
  public enum Role {
    VIEWER,
    OPERATOR;

    static Role of(String name) {
      try {
        return valueOf(name.trim().toUpperCase(Locale.ROOT));
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("role must be viewer or operator, got '" + name + "'");
      }
    }
  }

  /**
   * @param role {@code viewer} or {@code operator}
   */
  public record User(String name, String passwordHash, String role) {
    /** The role of a user whose entry names none (ui.users[].role): read only. */
    public static final String DEFAULT_ROLE = "viewer";

    public User {
      Role.of(role);
    }

    /** A user with the {@value #DEFAULT_ROLE} role. */
    public User(String name, String passwordHash) {
      this(name, passwordHash, DEFAULT_ROLE);
    }

    @Override
    public String toString() {
      return "User[name=" + name + ", passwordHash=*****, role=" + role + "]";
    }
  }

  public boolean enabled() {
    return !users.isEmpty() || !trustedUserHeader.isEmpty();
  }

  /**
   * Refuses to serve a non-loopback address to anonymous operators unless {@code allowAnonymous}
   * says so.
   *
   * @throws IllegalStateException saying what to configure
   */
  void checkBind(String bindAddress) {
    if (enabled() || allowAnonymous || loopback(bindAddress)) {
      return;
    }
    throw new IllegalStateException(
        "the web UI would listen on "
            + bindAddress
            + " without sign-in, so anyone"
            + " who reaches it could stop and abort workflows: configure ui.users (hashes from flipper hash-password"
            + " --bcrypt) or ui.trustedUserHeader with ui.trustedProxies, bind ui.bindAddress to 127.0.0.1, or set"
            + " ui.allowAnonymous: true");
  }

  static boolean loopback(String address) {
    try {
      return !address.isEmpty() && InetAddress.getByName(address).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
