"""The local web app: play, analyse and keep ratings in the browser."""
