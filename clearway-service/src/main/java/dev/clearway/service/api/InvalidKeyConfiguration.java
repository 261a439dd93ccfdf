package dev.clearway.service.api;

/**
 * A configured key that the service refuses to start with. The message names the role, its variable
 * and the entry's position in the list, never the entry itself.
 */
public final class InvalidKeyConfiguration extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final Role role;
  private final int position;

  InvalidKeyConfiguration(Role role, int position, String problem) {
    super(role.label() + " keys (" + role.variable() + "), entry " + position + ": " + problem);
    this.role = role;
    this.position = position;
  }

  public Role role() {
    return role;
  }

  /** The entry's 1-based position in its comma-separated list. */
  public int position() {
    return position;
  }
}
