"""Front ends: the command line, terminal play and the web app, and the layer
they share (`rackety.frontends.common`)."""
