"""The print and e-book editions (`atlas-site export`): assemble.py makes one language of the book
an edition from the rendered site, pdf.py and epub.py make the files, downloads.py keeps them for
the site to link, run.py runs it all. Importing the package loads none of their dependencies."""
