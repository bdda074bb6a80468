"""Small Streamlit helpers shared by the pages: the database, the signed-in person, cached
reads and the way actions report back. The only part of `stsa` that imports Streamlit."""
