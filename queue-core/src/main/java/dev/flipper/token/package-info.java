/**
 * The token master's model and operations (Pinball's master): {@link dev.flipper.token.Token},
 * {@link dev.flipper.token.TokenMaster} and its store-backed implementation {@link
 * dev.flipper.token.TokenService}. Storage backends implement {@link
 * dev.flipper.token.spi.TokenStore}. See docs/tokens.md.
 */
package dev.flipper.token;
